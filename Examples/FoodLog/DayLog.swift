import InkwellClient

/// What was eaten on a day, as the app declares it: each food a counter, so counts made on different
/// devices add up when they sync instead of one overwriting another.
struct DayLog: Model {
    @CounterMap var foods: [String: Int64]

    /// The longest food name a day's field can hold: the model's bound on field names, less `foods/`.
    static let maximumFoodBytes = 250
}
