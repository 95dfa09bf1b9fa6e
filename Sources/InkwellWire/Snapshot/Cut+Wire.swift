import Foundation
import InkwellSync

extension Cut {
    /// The cut as snapshots write it: one entry per replica, sorted by replica, with its seq and the stamp
    /// of its last change.
    var wireEntries: [WireCutEntry] {
        vector.entries.keys.sorted().map { replica in
            var entry = WireCutEntry()
            entry.replica = Data(replica.bytes)
            entry.seq = vector[replica]
            entry.stamp = stamps[replica]!.rawValue
            return entry
        }
    }
}
