import ArgumentParser
import Foundation
import InkwellClient
import InkwellCommandLine
import InkwellStore
import Logging

extension Inkwell {
    /// Uploads and downloads a board's blobs (its images), sealed and opened with the board's key when it
    /// is encrypted.
    ///
    /// Its output is a contract: `blob put` prints the blob's hash, alone on a line.
    struct Blob: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload or download a board's blobs (images), sealed when the board is encrypted.",
            subcommands: [Put.self, Get.self]
        )

        /// What both subcommands are pointed at, as `join` is.
        struct Target: ParsableArguments {
            @Argument(
                help: "A board's link (http(s)://HOST/r/ROOM?cap=…#key=…), or a ROOM with --server and --data."
            )
            var board: String

            @Option(help: "The server, e.g. http://127.0.0.1:8080 (not needed with a link).")
            var server: String?

            @Option(help: "A local store's directory, whose links for the room are used (default: the link's alone).")
            var data: String?

            @Option(help: "Seconds an upload or download may go without progress.")
            var timeout = 60.0

            @Option(help: "Log level on standard error.")
            var logLevel = "warning"

            func validate() throws {
                guard try BoardTarget(board, server: server).syncURL != nil else {
                    throw ValidationError("give --server, or a board's link")
                }
                guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
            }

            /// A client of the board's server over the store (in memory without --data), holding the link's
            /// credentials; it needs no sync connection to move blobs.
            func client() throws -> (SyncClient, room: String) {
                ProcessLogging.bootstrap(level: logLevel)
                let target = try BoardTarget(board, server: server)
                let store = try LocalStore.open(data)
                try target.remember(in: store)
                let client = try SyncClient(
                    store: store,
                    url: target.syncURL!,
                    rooms: [target.room],
                    configuration: SyncClient.Configuration(blobTimeout: .milliseconds(Int64(timeout * 1_000))),
                    logger: Logger(label: "inkwell.blob")
                )
                return (client, target.room)
            }
        }

        struct Put: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Upload a file as a blob of the board and print its hash.",
                discussion: """
                    Needs an edit link. On an encrypted board the file is sealed with the board's key first, \
                    and the hash printed names the sealed bytes, as the server stores them.
                    """
            )

            @OptionGroup var target: Target

            @Argument(help: "The file to upload.")
            var file: String

            func run() async throws {
                let bytes: [UInt8]
                do {
                    bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
                } catch {
                    throw ValidationError("cannot read \(file): \(error.localizedDescription)")
                }
                let (client, room) = try target.client()
                let hash: BlobHash
                do {
                    hash = try await client.uploadBlob(bytes, room: room)
                } catch {
                    throw ValidationError("the blob was not uploaded: \(error)")
                }
                print(hash.hex)
            }
        }

        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Download a blob of the board: the bytes as uploaded, opened if the board is encrypted.",
                discussion: "Writes to --output, or to standard output."
            )

            @OptionGroup var target: Target

            @Argument(help: "The blob's hash, as blob put printed it (64 hex digits).")
            var hash: String

            @Option(help: "The file to write (default: standard output).")
            var output: String?

            func validate() throws {
                guard BlobHash(hex: hash) != nil else { throw ValidationError("a blob's hash is 64 hex digits") }
            }

            func run() async throws {
                let (client, room) = try target.client()
                let bytes: [UInt8]
                do {
                    bytes = try await client.downloadBlob(BlobHash(hex: hash)!, room: room)
                } catch {
                    throw ValidationError("the blob was not downloaded: \(error)")
                }
                guard let output else {
                    FileHandle.standardOutput.write(Data(bytes))
                    return
                }
                do {
                    try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw ValidationError("cannot write \(output): \(error.localizedDescription)")
                }
            }
        }
    }
}
