/// Sizes checked before anything is allocated, so hostile input costs bounded memory.
public enum WireLimits {
    /// One encoded change.
    public static let maximumChangeBytes = 4 << 20
    /// Operations in one change.
    public static let maximumOperationsPerChange = 10_000
    /// Points in one operation (as the board accepts).
    public static let maximumPointsPerOperation = 100_000
    /// A pack's body once decompressed.
    public static let maximumPackBodyBytes = 64 << 20
    /// Changes in one pack.
    public static let maximumEntriesPerPack = 200_000
    /// A room or board name, in UTF-8 bytes.
    public static let maximumNameBytes = 256
    /// A change's seq (and a cut's): stores keep seqs as signed 64-bit integers, and a timeline that ends
    /// below `UInt64.max` always has a next seq to name.
    public static let maximumSeq = UInt64(Int64.max)
}
