// Trace hooks that turn each traced call into a System.Diagnostics.Activity span of the source
// "CilInstrument.Trace", so that any ActivityListener or OpenTelemetry exporter (AddSource
// "CilInstrument.Trace") sees it: the span's name is the method, its duration the call's, its
// status Ok or Error, and a failed call carries the exception's type and message as tags
// (OpenTelemetry's exception.type and exception.message). A call that returns an unfinished Task,
// ValueTask or ValueTask<T> ends when that does (the caller gets one of the same type that
// finishes once the span has ended), so an async method's span covers its awaits and its
// asynchronous failures.
using System;
using System.Diagnostics;
using System.Reflection;
using System.Threading.Tasks;

namespace ActivityHooks
{
    public static class Hooks
    {
        public const string SourceName = "CilInstrument.Trace";
        static readonly ActivitySource Source = new ActivitySource(SourceName);

        // The span becomes the current Activity, so calls made inside it are its children.
        // Without a listener, StartActivity returns null and the call costs almost nothing.
        public static object OnEnter(string method)
        {
            return Source.StartActivity(method, ActivityKind.Internal);
        }

        public static void OnLeave(object state, ref object result, Exception exception)
        {
            var span = state as Activity;
            if (span == null) return;
            if (exception == null && result is ValueTask valueTask)
            {
                result = LeaveValueTask(valueTask, span);
                return;
            }
            if (exception == null && result != null && IsValueTaskOf(result.GetType()))
            {
                result = LeaveValueTaskOf.MakeGenericMethod(result.GetType().GetGenericArguments()[0]).Invoke(null, new object[] { result, span });
                return;
            }
            var task = result as Task;
            if (exception != null || task == null || task.IsCompleted)
            {
                End(span, exception ?? Failure(task));
                return;
            }
            // The caller goes on with the context it had before the call, and gets a Task of the
            // same type that completes as the original does, once the span has ended: whoever
            // awaits the call sees the span ended (as APM agents do with async results).
            Activity.Current = span.Parent;
            Type value = ResultType(task.GetType());
            result = value == null ? Continue(task, span)
                                   : ContinueOf.MakeGenericMethod(value).Invoke(null, new object[] { task, span });
        }

        static readonly MethodInfo ContinueOf = typeof(Hooks).GetMethod("ContinueWithResult", BindingFlags.NonPublic | BindingFlags.Static);
        static readonly MethodInfo LeaveValueTaskOf = typeof(Hooks).GetMethod("LeaveValueTaskWithResult", BindingFlags.NonPublic | BindingFlags.Static);

        static bool IsValueTaskOf(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(ValueTask<>);

        // A ValueTask may be awaited (or asked for its Task) only once, and it may stand for a
        // pooled IValueTaskSource that is reused after that: so one that has not finished well is
        // turned into its Task here, once, and the caller gets a new ValueTask over the Task that
        // continues it (the boxed result is replaced; the method's own code unboxes it).
        static object LeaveValueTask(ValueTask value, Activity span)
        {
            if (value.IsCompletedSuccessfully)
            {
                End(span, null);
                return value;
            }
            Task task = value.AsTask();
            if (task.IsCompleted)
            {
                End(span, Failure(task));
                return new ValueTask(task);
            }
            Activity.Current = span.Parent;
            return new ValueTask(Continue(task, span));
        }

        static object LeaveValueTaskWithResult<T>(ValueTask<T> value, Activity span)
        {
            if (value.IsCompletedSuccessfully)
            {
                End(span, null);
                return value;
            }
            Task<T> task = value.AsTask();
            if (task.IsCompleted)
            {
                End(span, Failure(task));
                return new ValueTask<T>(task);
            }
            Activity.Current = span.Parent;
            return new ValueTask<T>(ContinueWithResult(task, span));
        }

        /// T of the Task<T> that `type` is or derives from (an async method's Task is a subclass);
        /// null for a plain Task.
        static Type ResultType(Type type)
        {
            for (; type != null && type != typeof(Task); type = type.BaseType)
                if (type.IsGenericType && type.GetGenericTypeDefinition() == typeof(Task<>)) return type.GetGenericArguments()[0];
            return null;
        }

        static async Task Continue(Task task, Activity span)
        {
            try
            {
                await task.ConfigureAwait(false);
            }
            catch (Exception e)
            {
                End(span, e);
                throw;
            }
            End(span, null);
        }

        static async Task<T> ContinueWithResult<T>(Task<T> task, Activity span)
        {
            T value;
            try
            {
                value = await task.ConfigureAwait(false);
            }
            catch (Exception e)
            {
                End(span, e);
                throw;
            }
            End(span, null);
            return value;
        }

        static Exception Failure(Task task)
        {
            if (task == null || !task.IsCompleted) return null;
            if (task.IsFaulted) return task.Exception.InnerExceptions.Count == 1 ? task.Exception.InnerException : task.Exception;
            if (task.IsCanceled) return new TaskCanceledException(task);
            return null;
        }

        static void End(Activity span, Exception failure)
        {
            if (failure == null)
            {
                span.SetStatus(ActivityStatusCode.Ok);
            }
            else
            {
                span.SetStatus(ActivityStatusCode.Error, failure.Message);
                span.SetTag("exception.type", failure.GetType().FullName);
                span.SetTag("exception.message", failure.Message);
            }
            // Stop sets the duration and makes the parent current again on this thread.
            var current = Activity.Current;
            span.Stop();
            if (current != span) Activity.Current = current;
        }
    }
}
