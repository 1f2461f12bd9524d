// .NET Framework (mcs) fixture: switch statements (dense -> IL switch, string), closures and
// lambdas, properties, events, static constructor, iterators, params, enums.
using System;
using System.Collections.Generic;
using System.Globalization;

namespace MonoFixtures
{
    [Flags]
    public enum Opts : byte { None = 0, A = 1, B = 2, C = 4 }

    public class Thermostat
    {
        private double celsius;
        public static int Count;

        static Thermostat() { Console.WriteLine("Thermostat cctor"); }

        public Thermostat() { Count++; }

        public event EventHandler Changed;

        public double Celsius
        {
            get { return celsius; }
            set { celsius = value; if (Changed != null) Changed(this, EventArgs.Empty); }
        }

        public double Fahrenheit
        {
            get { return celsius * 9 / 5 + 32; }
            set { Celsius = (value - 32) * 5 / 9; }
        }

        public string Label { get; set; }
    }

    public static class MonoMisc
    {
        static string Day(int d)
        {
            switch (d)
            {
                case 0: return "Sun";
                case 1: return "Mon";
                case 2: return "Tue";
                case 3: return "Wed";
                case 4: return "Thu";
                case 5: return "Fri";
                case 6: return "Sat";
                default: return "?";
            }
        }

        static int Color(string name)
        {
            switch (name)
            {
                case "red": return 0xFF0000;
                case "green": return 0x00FF00;
                case "blue": return 0x0000FF;
                case "white": return 0xFFFFFF;
                case "black": return 0;
                case "gray": return 0x808080;
                case "yellow": return 0xFFFF00;
                default: return -1;
            }
        }

        static IEnumerable<int> Countdown(int from)
        {
            while (from > 0) yield return from--;
        }

        static int Max(params int[] xs)
        {
            int m = int.MinValue;
            foreach (int x in xs) if (x > m) m = x;
            return m;
        }

        static Func<int> MakeCounter(int start, int step)
        {
            int current = start;
            return () => { current += step; return current; };
        }

        static void OnChanged(object sender, EventArgs e)
        {
            Console.WriteLine("changed to " + ((Thermostat)sender).Celsius.ToString("F1", CultureInfo.InvariantCulture));
        }

        static void Main()
        {
            var days = new List<string>();
            for (int i = -1; i <= 7; i++) days.Add(Day(i));
            Console.WriteLine("days " + string.Join(",", days.ToArray()));
            foreach (string c in new[] { "red", "gray", "yellow", "purple" })
                Console.WriteLine("color " + c + " " + Color(c).ToString("X6", CultureInfo.InvariantCulture));

            var t = new Thermostat();
            t.Changed += OnChanged;
            t.Celsius = 21.5;
            t.Fahrenheit = 212;
            t.Label = "lab";
            Console.WriteLine("thermostat " + t.Label + " " + t.Fahrenheit.ToString("F1", CultureInfo.InvariantCulture) + " count " + Thermostat.Count);

            Func<int> counter = MakeCounter(10, 5);
            counter();
            counter();
            Console.WriteLine("counter " + counter());
            var items = new List<int> { 5, 3, 8, 1 };
            items.Sort((a, b) => b.CompareTo(a));
            Console.WriteLine("sorted " + string.Join(",", items.ConvertAll(x => x.ToString(CultureInfo.InvariantCulture)).ToArray()));

            int total = 0;
            foreach (int x in Countdown(4)) total = total * 10 + x;
            Console.WriteLine("countdown " + total);
            Console.WriteLine("max " + Max(3, 9, 2) + " " + Max());
            Opts o = Opts.A | Opts.C;
            Console.WriteLine("opts " + o + " " + (int)o);
        }
    }
}
