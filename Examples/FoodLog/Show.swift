import ArgumentParser
import InkwellClient
import InkwellModel

extension FoodLog {
    /// Prints the log as this device holds it.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the log as this device holds it.",
            discussion: """
                Prints one line "DAY FOOD COUNT" per food, sorted by day then food (by UTF-8 bytes), for \
                every stored day or the one given. Foods whose count is 0 (counted, then taken back) are \
                left out.
                """
        )

        @Option(help: "Only this day, YYYY-MM-DD.")
        var day: String?

        @OptionGroup var log: LogOptions

        mutating func validate() throws {
            if let day, Day(day) == nil { throw ValidationError(Day.format) }
        }

        func run() async throws {
            let replica = try await log.openReplica()
            var lines: [String] = []
            // The days come from the store's index of documents; only those asked for are read.
            for (name, logged) in try await replica.models(DayLog.self, room: log.room, names: day.map { $0...$0 })
            where Day(name) != nil {
                for (food, count) in logged.foods.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
                where count != 0 {
                    lines.append("\(name) \(food) \(count)")
                }
            }
            await replica.stop()
            for line in lines { print(line) }
        }
    }
}
