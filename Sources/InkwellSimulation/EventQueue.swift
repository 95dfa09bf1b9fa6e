/// Events in time order; events at the same time in the order they were scheduled, so a run depends on
/// its seed alone.
struct EventQueue<Event> {
    private struct Entry {
        let time: UInt64
        let order: UInt64
        let event: Event

        func precedes(_ other: Entry) -> Bool {
            (time, order) < (other.time, other.order)
        }
    }

    /// A binary min-heap.
    private var heap: [Entry] = []
    private var scheduled: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// When the earliest event is due.
    var nextTime: UInt64? { heap.first?.time }

    mutating func schedule(_ event: Event, at time: UInt64) {
        heap.append(Entry(time: time, order: scheduled, event: event))
        scheduled += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest event and its time.
    mutating func next() -> (time: UInt64, event: Event)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var least = parent
            if left < heap.count, heap[left].precedes(heap[least]) { least = left }
            if right < heap.count, heap[right].precedes(heap[least]) { least = right }
            guard least != parent else { break }
            heap.swapAt(parent, least)
            parent = least
        }
        return (first.time, first.event)
    }
}
