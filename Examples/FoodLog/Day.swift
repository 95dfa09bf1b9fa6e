/// A day of the log, written `YYYY-MM-DD`: the name of its document.
struct Day: Hashable, Comparable, CustomStringConvertible {
    let description: String

    /// The day `text` names, if it is a date of the Gregorian calendar written `YYYY-MM-DD`.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, zip(parts, [4, 2, 2]).allSatisfy({ $0.count == $1 && $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            year >= 1, (1...12).contains(month), day >= 1, day <= Self.length(of: month, in: year)
        else { return nil }
        description = text
    }

    static func < (lhs: Day, rhs: Day) -> Bool { lhs.description < rhs.description }

    private static func length(of month: Int, in year: Int) -> Int {
        switch month {
        case 2: year.isMultiple(of: 4) && (!year.isMultiple(of: 100) || year.isMultiple(of: 400)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// What a person is told when a day does not parse.
    static let format = "days are written YYYY-MM-DD, e.g. 2026-11-25"
}
