/// Runs an operation over many items in child tasks, never more than a given number at a time,
/// for the batch commands (`validate`, `tune`): the pool of workers bounds CPU, this bounds how
/// many files are read into memory ahead of it.
enum BoundedTaskGroup {
    /// Runs `operation` on each of `items`, at most `width` at once, and hands each result with its
    /// item's index to `consume` in the order they complete.
    static func run<Item: Sendable, Output: Sendable>(
        _ items: [Item],
        width: Int,
        operation: @escaping @Sendable (Item) async -> Output,
        consume: (_ index: Int, _ output: Output) -> Void
    ) async {
        await withTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            func startNext() {
                guard next < items.count else { return }
                let index = next
                let item = items[index]
                next += 1
                group.addTask { (index, await operation(item)) }
            }
            for _ in 0..<max(1, width) { startNext() }
            for await (index, output) in group {
                consume(index, output)
                startNext()
            }
        }
    }
}
