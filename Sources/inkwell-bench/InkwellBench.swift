import ArgumentParser

/// The `inkwell-bench` command: measurements of the engine and of a running server, kept out of the user's
/// `inkwell`.
@main
struct InkwellBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inkwell-bench",
        abstract: "Measure Inkwell's sync engine, and load a running server.",
        subcommands: [Engine.self, Load.self, History.self, Failover.self]
    )
}
