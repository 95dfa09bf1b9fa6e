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
            for day in try log.days(in: replica.store) where self.day == nil || self.day == day.description {
                let document = try await replica.open(ModelDocument.self, room: log.room, document: day.description)
                for food in document.fields where document.counter(food) != 0 {
                    lines.append("\(day) \(food) \(document.counter(food))")
                }
            }
            await replica.stop()
            for line in lines { print(line) }
        }
    }
}
