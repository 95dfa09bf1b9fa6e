/// Where a load run is. Members connect; drawers draw unmeasured (warm-up), then measured; then they
/// stop and the run waits for the last packs to arrive (draining); then every socket closes.
enum LoadPhase: Int, Comparable, Sendable {
    case connecting
    case warmingUp
    case measuring
    case draining
    case closing

    static func < (lhs: LoadPhase, rhs: LoadPhase) -> Bool { lhs.rawValue < rhs.rawValue }
}
