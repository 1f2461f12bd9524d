// F# mutual tail recursion (issue 19.1): isEven/isOdd call each other with `tail. call`.
module Mutual

let rec isEven (n: int64) = if n = 0L then true else isOdd (n - 1L)
and isOdd (n: int64) = if n = 0L then false else isEven (n - 1L)

[<EntryPoint>]
let main _ =
    printfn "isEven 1000000 = %b" (isEven 1000000L)
    0
