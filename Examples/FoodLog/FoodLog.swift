import ArgumentParser

/// `food-log`: what was eaten each day, kept on this device and synced with others through an
/// Inkwell server. Each day is a model document of the log's room; each food one of its counters.
@main
struct FoodLog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "food-log",
        abstract: "A food log that works offline and syncs through an Inkwell server.",
        discussion: """
            Each day (YYYY-MM-DD) is a document of the room; each food on it a counter. Counts made on \
            different devices add up when they sync: none overwrites another.
            """,
        subcommands: [Add.self, Show.self, Sync.self]
    )
}
