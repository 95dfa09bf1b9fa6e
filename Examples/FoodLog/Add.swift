import ArgumentParser
import InkwellClient
import InkwellModel

extension FoodLog {
    /// Counts a food on a day, on this device alone: it works offline, and waits in the outbox for `sync`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count a food on a day (offline; `sync` sends it).",
            discussion: """
                Prints "added N FOOD on DAY: T on this device" (T is the day's total for the food as this \
                device knows it). A negative --count (written --count=-1) takes back what was counted.
                """
        )

        @Argument(help: "The day, YYYY-MM-DD.")
        var day: String

        @Argument(help: "The food: up to 250 bytes of UTF-8, without spaces or control characters.")
        var food: String

        @Option(help: "How many to add.")
        var count: Int64 = 1

        @OptionGroup var log: LogOptions

        mutating func validate() throws {
            guard Day(day) != nil else { throw ValidationError(Day.format) }
            guard Self.isValidFood(food) else {
                throw ValidationError(
                    "a food is 1 to \(DayLog.maximumFoodBytes) bytes of UTF-8 without spaces or control characters"
                )
            }
            guard count != 0 else { throw ValidationError("--count must not be 0") }
        }

        func run() async throws {
            let replica = try await log.openReplica()
            let (food, count) = (food, count)
            // One change: "FOOD + count" on the day, however many devices count it too.
            let updated = try await replica.update(DayLog.self, room: log.room, document: day) {
                $0.foods[food, default: 0] += count
            }
            let total = updated.foods[food] ?? 0
            await replica.stop()
            print("added \(count) \(food) on \(day): \(total) on this device")
        }

        /// Names that print as one word of a `show` line, within the model's bound on field names.
        static func isValidFood(_ food: String) -> Bool {
            (1...DayLog.maximumFoodBytes).contains(food.utf8.count)
                && !food.unicodeScalars.contains {
                    $0.properties.isWhitespace || $0.properties.generalCategory == .control
                }
        }
    }
}
