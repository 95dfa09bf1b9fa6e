public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One of this package's executables running as a child, as a user would run it, with its output
/// captured as it arrives. Every wait polls with `Task.sleep`: tests share the cooperative pool, which
/// has as many threads as cores, and a blocked thread would starve the others.
public final class ChildProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(_ description: String) {
            self.description = description
        }
    }

    private final class Captured: Sendable {
        let standardOutput = Mutex("")
        let standardError = Mutex("")
    }

    public let arguments: [String]
    private let process: Mutex<Process>
    private let captured = Captured()
    /// Where the Swift runtime's backtracer writes a report if the child crashes: a file, not the output
    /// pipes, so that a test killing a crashed child cannot leave the backtracer blocked on them.
    private let backtraces: URL

    /// The package's executables sit beside the test bundle in the build products folder.
    public static func executable(_ name: String = "inkwell") -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Starts `executable ARGUMENTS`, in `directory` if given (else in this process's working directory).
    public init(_ arguments: [String], executable: URL = ChildProcess.executable(), directory: URL? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure("no executable at \(executable.path): build the package first")
        }
        self.arguments = arguments
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let backtraces = FileManager.default.temporaryDirectory
            .appendingPathComponent("inkwell-backtraces-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: backtraces, withIntermediateDirectories: true)
        self.backtraces = backtraces
        var environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_BACKTRACE"] == nil {
            environment["SWIFT_BACKTRACE"] =
                "enable=yes,interactive=no,symbolicate=fast,output-to=\(backtraces.path)"
        }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let captured = captured
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            captured.standardOutput.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        error.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            captured.standardError.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        try process.run()
        self.process = Mutex(process)
    }

    deinit {
        process.withLock { process in
            if process.isRunning { Self.killTree(process.processIdentifier) }
        }
        try? FileManager.default.removeItem(at: backtraces)
    }

    public var standardOutput: String { captured.standardOutput.withLock { $0 } }
    public var standardError: String { captured.standardError.withLock { $0 } }
    /// The backtracer's report if the child crashed, else nil.
    public var crashReport: String? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: backtraces.path)) ?? []
        let reports = files.sorted().compactMap { file in
            try? String(contentsOf: backtraces.appendingPathComponent(file), encoding: .utf8)
        }
        return reports.isEmpty ? nil : reports.joined(separator: "\n")
    }
    /// Standard error, and the crash report if there is one: what a failure message should carry.
    public var diagnostics: String {
        let error = String(standardError.suffix(2_000))
        guard let report = crashReport else { return error }
        return error + "\ncrash report:\n" + report.prefix(8_000)
    }
    /// Whether it runs: as Foundation says, unless the kernel says it has died.
    public var isRunning: Bool {
        process.withLock { $0.isRunning && !Self.hasDied($0.processIdentifier) }
    }
    public var identifier: Int32 { process.withLock(\.processIdentifier) }

    /// The exit status once it has exited.
    public var terminationStatus: Int32? {
        process.withLock { $0.isRunning ? nil : $0.terminationStatus }
    }

    /// Waits until a line of standard output satisfies `match`; fails if the process exits first.
    ///
    /// The output is looked at once more after the deadline: a test process whose tasks wait their turn
    /// behind hundreds of others may wake past the deadline, and a line printed in time still counts.
    public func waitForLine(timeout: Duration, where match: (Substring) -> Bool) async throws -> Substring {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = standardOutput.split(separator: "\n").first(where: match) { return line }
            guard isRunning else {
                throw Failure("\(name) exited with \(terminationStatus ?? -1): \(diagnostics)")
            }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure("\(name) printed no expected line in \(timeout): \(standardOutput.suffix(2_000))")
    }

    /// Waits for the exit (SIGKILL after `timeout`) and returns the status.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(60)) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if isRunning {
            await letTheBacktracerFinish()
            signal(SIGKILL)
            while isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        }
        // The kernel may say it died before Foundation has reaped it: give Foundation a while to learn the
        // status (a child it never reaps has none to give).
        let reaped = ContinuousClock.now + .seconds(10)
        while process.withLock(\.isRunning), ContinuousClock.now < reaped {
            try? await Task.sleep(for: .milliseconds(10))
        }
        // Let the readability handlers take the last output.
        try? await Task.sleep(for: .milliseconds(50))
        return terminationStatus ?? -1
    }

    /// SIGTERM, as an operator would, then waits for the exit.
    @discardableResult
    public func terminate(timeout: Duration = .seconds(20)) async -> Int32 {
        signal(SIGTERM)
        return await waitForExit(timeout: timeout)
    }

    /// SIGKILL: the process dies where it stands.
    public func kill() async {
        await letTheBacktracerFinish()
        signal(SIGKILL)
        await waitForExit()
    }

    /// Whether the kernel says process `pid` has died: a zombie, or gone. Foundation's `Process` on Linux
    /// has been seen to leave a killed child a zombie it never reaps and to report it running for ever,
    /// which kept a test waiting for the exit of a server it had killed.
    static func hasDied(_ pid: Int32) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // "PID (NAME) STATE …": the name may hold spaces and parentheses, so the state follows the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state == "Z" || state == "X"
        #else
        return false
        #endif
    }

    /// Sends `signal` if the process is still running.
    public func signal(_ signal: Int32) {
        process.withLock { process in
            guard process.isRunning else { return }
            if signal == SIGKILL {
                Self.killTree(process.processIdentifier)
            } else {
                Self.send(signal, to: process.processIdentifier)
            }
        }
    }

    /// A child that crashed waits in its signal handler while the backtracer writes its report. Killing
    /// it then would lose the report, so this gives the backtracer up to `timeout` to finish.
    private func letTheBacktracerFinish(timeout: Duration = .seconds(30)) async {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, isRunning,
            Self.descendants(of: identifier).contains(where: { Self.command(of: $0).hasPrefix("swift-backtrace") })
        {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A process's command name from `/proc` ("" where there is none).
    private static func command(of identifier: Int32) -> String {
        let comm = try? String(contentsOfFile: "/proc/\(identifier)/comm", encoding: .utf8)
        return comm?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// SIGKILL to `identifier` and every process it started: a crashed child's backtracer outlives it
    /// otherwise, and has been seen to hang a suite for minutes.
    private static func killTree(_ identifier: Int32) {
        let descendants = Self.descendants(of: identifier)
        send(SIGKILL, to: identifier)
        for descendant in descendants { send(SIGKILL, to: descendant) }
    }

    /// The processes below `root`, from `/proc` (empty where there is none).
    public static func descendants(of root: Int32) -> [Int32] {
        #if os(Linux)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var children: [Int32: [Int32]] = [:]
        for entry in entries {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // "PID (NAME) STATE PPID …"
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            children[parent, default: []].append(pid)
        }
        var found: [Int32] = []
        var frontier = [root]
        while let next = frontier.popLast() {
            for child in children[next] ?? [] {
                found.append(child)
                frontier.append(child)
            }
        }
        return found
        #else
        return []
        #endif
    }

    private var name: String { "inkwell \(arguments.first ?? "")" }

    private static func send(_ signal: Int32, to identifier: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(identifier, signal)
        #elseif canImport(Musl)
        _ = Musl.kill(identifier, signal)
        #else
        _ = Darwin.kill(identifier, signal)
        #endif
    }
}
