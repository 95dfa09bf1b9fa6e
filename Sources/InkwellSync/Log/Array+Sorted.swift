extension Array where Element: Comparable {
    /// The first index whose element is not less than `element`, in a sorted array.
    ///
    /// - Complexity: O(1) when `element` sorts after every element, as what arrives in order (a cold
    ///   load, live drawing) does; O(log n) otherwise.
    @inlinable package func insertionPoint(of element: Element) -> Int {
        if let last, last < element { return count }
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < element { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Merges a sorted array into this sorted one.
    ///
    /// - Complexity: O(k) when every new element sorts last, O(n + k) otherwise.
    @inlinable mutating func mergeSorted(_ other: [Element]) {
        guard let first = other.first else { return }
        if let last = self.last, first < last {
            var merged: [Element] = []
            merged.reserveCapacity(count + other.count)
            var i = startIndex
            var j = other.startIndex
            while i < endIndex, j < other.endIndex {
                if other[j] < self[i] {
                    merged.append(other[j])
                    j += 1
                } else {
                    merged.append(self[i])
                    i += 1
                }
            }
            merged.append(contentsOf: self[i...])
            merged.append(contentsOf: other[j...])
            self = merged
        } else {
            append(contentsOf: other)
        }
    }
}
