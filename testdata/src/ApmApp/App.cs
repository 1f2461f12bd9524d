// The app of the "APM at JIT time" example: it knows nothing of tracing except an
// ActivityListener on the source "CilInstrument.Trace" (as an OpenTelemetry exporter would be
// configured), which prints each span that ends: its name, its parent, its status and, for a
// failure, the exception's type. It serves one request on a local HttpListener (127.0.0.1, a
// free port), calls it through HttpClient, calls a closed port (a failed call), parses two
// strings, one of which throws, and parses two more after an await in methods that return a
// ValueTask<int> and a ValueTask (one fails after it has suspended). Run alone it prints no span; under
//   cil-instrument run --mode trace --hooks ActivityHooks.dll --include-framework
//     --include 'System.Net.Http.HttpClient::SendAsync' --include 'App::*' -- dotnet ApmApp.dll
// it prints the spans of HttpClient.SendAsync and of its own methods. Durations vary, so they
// are never printed.
using System;
using System.Diagnostics;
using System.Net;
using System.Net.Http;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

public static class App
{
    public static int Main()
    {
        // Main's own span, if traced, started before this listener existed: it is not recorded.
        SpanPrinter.Listen();
        using var server = new Server();
        using var client = new HttpClient();
        Console.WriteLine("GET / -> " + Fetch(client, server.Url).GetAwaiter().GetResult());
        try
        {
            Fetch(client, "http://127.0.0.1:" + Server.ClosedPort() + "/").GetAwaiter().GetResult();
            Console.WriteLine("GET closed port -> a response?");
        }
        catch (HttpRequestException e)
        {
            Console.WriteLine("GET closed port -> " + e.GetType().Name);
        }
        Console.WriteLine("Parse(\"42\") = " + Parse("42"));
        try
        {
            Parse("forty-two");
        }
        catch (FormatException e)
        {
            Console.WriteLine("Parse(\"forty-two\") -> " + e.GetType().Name);
        }
        Console.WriteLine("ParseLater(\"7\") = " + ParseLater("7").AsTask().GetAwaiter().GetResult());
        try
        {
            CheckLater("seven").AsTask().GetAwaiter().GetResult();
        }
        catch (FormatException e)
        {
            Console.WriteLine("CheckLater(\"seven\") -> " + e.GetType().Name);
        }
        return 0;
    }

    // Both return before their work is done (Task.Yield suspends them): a span that ended at the
    // return would end before its child, the Parse after the await, and CheckLater's as Ok.
    static async ValueTask<int> ParseLater(string text)
    {
        await Task.Yield();
        return Parse(text);
    }

    static async ValueTask CheckLater(string text)
    {
        await Task.Yield();
        Parse(text);
    }

    static async Task<string> Fetch(HttpClient client, string url)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, url);
        using var response = await client.SendAsync(request, HttpCompletionOption.ResponseContentRead, CancellationToken.None);
        return (int)response.StatusCode + " " + await response.Content.ReadAsStringAsync();
    }

    static int Parse(string text)
    {
        return int.Parse(text);
    }
}

/// Prints every span of "CilInstrument.Trace" when it ends.
static class SpanPrinter
{
    public static void Listen()
    {
        var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "CilInstrument.Trace",
            Sample = (ref ActivityCreationOptions<ActivityContext> options) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = Print,
        };
        ActivitySource.AddActivityListener(listener);
    }

    static void Print(Activity span)
    {
        var line = new StringBuilder("span " + span.OperationName);
        line.Append(" parent=" + (span.Parent != null ? span.Parent.OperationName : "-"));
        line.Append(" status=" + span.Status);
        object type = span.GetTagItem("exception.type");
        if (type != null) line.Append(" exception.type=" + type);
        Console.WriteLine(line.ToString());
    }
}

/// Answers every request with "pong" on 127.0.0.1 at a port no one else had.
sealed class Server : IDisposable
{
    readonly HttpListener listener = new HttpListener();
    public readonly string Url;

    public Server()
    {
        // A port the system just gave out; if someone takes it before HttpListener does, try another.
        for (int attempt = 0; ; attempt++)
        {
            string url = "http://127.0.0.1:" + ClosedPort() + "/";
            listener.Prefixes.Clear();
            listener.Prefixes.Add(url);
            try
            {
                listener.Start();
                Url = url;
                break;
            }
            catch (HttpListenerException) when (attempt < 10)
            {
            }
        }
        Task.Run(Serve);
    }

    async Task Serve()
    {
        while (listener.IsListening)
        {
            HttpListenerContext context;
            try { context = await listener.GetContextAsync(); }
            catch (Exception) { return; }  // stopped
            byte[] body = Encoding.UTF8.GetBytes("pong");
            context.Response.ContentLength64 = body.Length;
            context.Response.OutputStream.Write(body, 0, body.Length);
            context.Response.Close();
        }
    }

    /// A port on 127.0.0.1 that nothing listens on now.
    public static int ClosedPort()
    {
        var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        int port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        return port;
    }

    public void Dispose() { listener.Close(); }
}
