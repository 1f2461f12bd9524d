// Drives Newtonsoft.Json (a library this project did not write) through a realistic job, for
// the trace-mode real-world test: the output must not change when the library is traced.
using System;
using System.Collections.Generic;
using System.Globalization;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using System.Linq;

public class Order
{
    public int Id { get; set; }
    public string Customer { get; set; }
    public decimal Total { get; set; }
    public List<string> Items { get; set; } = new List<string>();
    public DateTime Placed { get; set; }
    public Dictionary<string, double> Scores { get; set; } = new Dictionary<string, double>();
}

public static class JsonDriver
{
    public static int Main()
    {
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        var orders = new List<Order>();
        for (int i = 1; i <= 25; i++)
        {
            var o = new Order { Id = i, Customer = "c" + (i % 7), Total = i * 1.25m, Placed = new DateTime(2024, 1, i % 28 + 1, 0, 0, 0, DateTimeKind.Utc) };
            for (int j = 0; j < i % 4; j++) o.Items.Add("item" + j);
            o.Scores["q"] = i / 3.0;
            orders.Add(o);
        }
        string json = JsonConvert.SerializeObject(orders, Formatting.Indented);
        Console.WriteLine(json.Length + " chars");
        var back = JsonConvert.DeserializeObject<List<Order>>(json);
        decimal total = 0;
        foreach (var o in back) total += o.Total;
        Console.WriteLine("orders " + back.Count + " total " + total);
        JArray array = JArray.Parse(json);
        Console.WriteLine("customers " + string.Join(",", array.Select(t => (string)t["Customer"]).Distinct().OrderBy(s => s)));
        try { JsonConvert.DeserializeObject<Order>("{ \"Id\": \"not a number\" }"); }
        catch (JsonReaderException e) { Console.WriteLine("error " + e.GetType().Name + " at " + e.Path); }
        Console.WriteLine(JsonConvert.SerializeObject(new { a = 1, b = new[] { "x", "y" }, c = (string)null }));
        return 0;
    }
}
