// A driver for YamlDotNet (from NuGet), for trace_nuget_test.sh: serializes an object graph,
// reads it back, walks a YAML stream's events, and prints the exceptions of malformed input
// (type, message, the library's frames of the stack trace), so a traced copy of the library
// must print exactly what the original prints.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using YamlDotNet.Core;
using YamlDotNet.Core.Events;
using YamlDotNet.Serialization;
using YamlDotNet.Serialization.NamingConventions;

public class Address
{
    public string Street { get; set; }
    public int Number { get; set; }
}

public class Person
{
    public string Name { get; set; }
    public int Age { get; set; }
    public double Height { get; set; }
    public bool Active { get; set; }
    public List<string> Tags { get; set; }
    public Dictionary<string, int> Scores { get; set; }
    public Address Home { get; set; }
}

public static class YamlDriver
{
    static void Frames(Exception e)
    {
        // The library's frames, method names only (no offsets, no paths): the same in both runs.
        foreach (string line in (e.StackTrace ?? "").Split('\n').Select(l => l.Trim()).Where(l => l.StartsWith("at YamlDotNet")))
        {
            int paren = line.IndexOf('(');
            Console.WriteLine("    " + (paren > 0 ? line.Substring(0, paren) : line));
        }
    }

    static void Try(string label, Action action)
    {
        try
        {
            action();
            Console.WriteLine(label + ": ok");
        }
        catch (Exception e)
        {
            Console.WriteLine(label + ": " + e.GetType().FullName + ": " + e.Message);
            Frames(e);
            if (e.InnerException != null) Console.WriteLine("  inner " + e.InnerException.GetType().FullName + ": " + e.InnerException.Message);
        }
    }

    public static int Main()
    {
        var people = new List<Person>();
        for (int i = 0; i < 3; i++)
            people.Add(new Person
            {
                Name = "Person " + i,
                Age = 20 + i,
                Height = 1.5 + i / 100.0,
                Active = i % 3 == 0,
                Tags = Enumerable.Range(0, i % 5).Select(t => "tag" + t).ToList(),
                Scores = new Dictionary<string, int> { ["math"] = i * 2, ["art"] = 100 - i },
                Home = new Address { Street = "Street " + (i % 7), Number = i },
            });
        var serializer = new SerializerBuilder().WithNamingConvention(CamelCaseNamingConvention.Instance).Build();
        string yaml = serializer.Serialize(people);
        Console.WriteLine("yaml: " + yaml.Length + " chars, " + yaml.Split('\n').Length + " lines");
        Console.WriteLine(yaml.Substring(0, 200));

        var deserializer = new DeserializerBuilder().WithNamingConvention(CamelCaseNamingConvention.Instance).Build();
        var back = deserializer.Deserialize<List<Person>>(yaml);
        Console.WriteLine("read back: " + back.Count + " people, ages " + back.Sum(p => p.Age) + ", tags " + back.Sum(p => p.Tags.Count) +
                          ", same: " + (serializer.Serialize(back) == yaml));

        int events = 0, scalars = 0;
        var parser = new Parser(new StringReader(yaml));
        while (parser.MoveNext())
        {
            events++;
            if (parser.Current is Scalar) scalars++;
        }
        Console.WriteLine("events: " + events + ", scalars: " + scalars);

        Try("unclosed flow", () => deserializer.Deserialize<List<Person>>("- name: [unclosed"));
        Try("bad indentation", () => deserializer.Deserialize<Person>("name: x\n  age: 3\n age: 4"));
        Try("wrong type", () => deserializer.Deserialize<Person>("age: not a number"));
        Try("unknown property", () => deserializer.Deserialize<Person>("nickname: x"));
        Try("duplicate key", () => new DeserializerBuilder().Build().Deserialize<Dictionary<string, int>>("a: 1\na: 2"));
        Try("tabs", () => deserializer.Deserialize<Person>("name:\tx\n\tage: 1"));
        return 0;
    }
}
