import Foundation
import InkwellTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A server that crashes under a test leaves the runtime's backtrace where the test can print it, and the
/// test's kill does not wait on the backtracer: a power-loss suite once hung for ten minutes on one.
@Suite struct CrashReportTests {
    @Test func aCrashedServersBacktraceIsKeptAndItsKillReturns() async throws {
        let folder = try TemporaryDirectory("crash-report")
        let server = try await ServerProcess.start(data: folder.url, logLevel: "error")
        #expect(server.crashReport == nil)
        // SIGABRT is what a failed precondition raises: the runtime's crash handler takes it.
        server.child.signal(SIGABRT)
        // The handler starts the backtracer; the kill below must then wait for its report.
        let deadline = ContinuousClock.now + .seconds(10)
        while ChildProcess.descendants(of: server.child.identifier).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let started = ContinuousClock.now
        await server.kill()
        let waited = ContinuousClock.now - started
        let report = try #require(server.crashReport, "no backtrace: \(server.child.standardError.suffix(2_000))")
        #expect(report.contains("Program crashed"), "\(report.prefix(2_000))")
        #expect(report.contains("Thread 0"), "\(report.prefix(2_000))")
        #expect(waited < .seconds(45), "the kill waited \(waited)")
        #expect(ChildProcess.descendants(of: server.child.identifier).isEmpty)
    }

    @Test func aServerKilledWhileWellLeavesNoReport() async throws {
        let folder = try TemporaryDirectory("crash-report-none")
        let server = try await ServerProcess.start(data: folder.url, logLevel: "error")
        await server.kill()
        #expect(server.crashReport == nil)
    }
}
