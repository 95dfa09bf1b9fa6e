import ArgumentParser

/// The `inkwell` command: the whiteboard server and the tools around it.
@main
struct Inkwell: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inkwell",
        abstract: "A local-first collaborative whiteboard and its sync engine.",
        subcommands: [
            Serve.self, Join.self, Share.self, Blob.self, Export.self, Recognize.self, Simulate.self, StoreWriter.self,
        ]
    )
}
