/// Percentiles by linear interpolation between order statistics (numpy's default method).
public enum Percentile {
    /// The `percentile` (0-100) of `sorted`, which must be sorted and not empty.
    public static func linear(_ sorted: [Double], _ percentile: Double) -> Double {
        precondition(!sorted.isEmpty, "a percentile of nothing")
        let position = percentile / 100 * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// The `percentile` (0-100) of `values` in any order, not empty: exactly
    /// `linear(values.sorted(), percentile)`, from the one or two order statistics it reads, found
    /// by selection instead of sorting every value (the blur score's noise floor takes eight a plane).
    public static func linear(unsorted values: [Double], _ percentile: Double) -> Double {
        precondition(!values.isEmpty, "a percentile of nothing")
        // The selection reads through an unchecked buffer: an index outside it must trap here.
        precondition((0...100).contains(percentile), "a percentile outside 0-100")
        let position = percentile / 100 * Double(values.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, values.count - 1)
        var scratch = values
        return scratch.withUnsafeMutableBufferPointer { buffer in
            select(lower, in: buffer)
            let low = buffer[lower]
            // Selection leaves every value after `lower` at least as large: the next order statistic is their least.
            let high = upper > lower ? buffer[upper...].min()! : low
            return low + (high - low) * (position - Double(lower))
        }
    }

    /// Reorders `values` so that index `k` holds the value a sort would put there, every value
    /// before it at most that and every value after it at least that (Hoare's selection).
    static func select(_ k: Int, in values: UnsafeMutableBufferPointer<Double>) {
        select(k, in: values, by: <)
    }

    /// Reorders `items` so that index `k` holds the item a sort by `before` (a strict weak order)
    /// would put there, every item before it not after it and every item after it not before it
    /// (Hoare's selection).
    @inline(__always)
    static func select<Item>(_ k: Int, in items: UnsafeMutableBufferPointer<Item>, by before: (Item, Item) -> Bool) {
        var low = 0, high = items.count - 1
        while high > low {
            let pivot = items[low + (high - low) / 2]
            var i = low, j = high
            while i <= j {
                while before(items[i], pivot) { i += 1 }
                while before(pivot, items[j]) { j -= 1 }
                if i <= j {
                    items.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return
            }
        }
    }
}
