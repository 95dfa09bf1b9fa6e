import Foundation
import InkwellTesting
import Testing

/// `inkwell serve` serves the page built with it, never one from its working directory: started in an empty
/// directory it answers with the bytes of the repository's `Web/`, and `--web DIR` serves another directory.
@Suite struct ServeWebClientTests {
    /// The repository's `Web/`, which the build copies beside the binary.
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Web")

    @Test func theBuiltPageIsServedWhateverTheWorkingDirectory() async throws {
        let folder = try TemporaryDirectory("web-built")
        let elsewhere = try Self.emptyDirectory(in: folder)
        let server = try await ServerProcess.start(
            data: folder.url.appendingPathComponent("data"),
            directory: elsewhere
        )
        let index = try Self.text(of: Self.web.appendingPathComponent("index.html"))
        let page = server.get("/")
        #expect(page?.status == 200)
        // The page names its entry module and stylesheet under the version of the built files.
        let body = page?.body ?? ""
        let start = try #require(body.range(of: #"src="/v/"#)).upperBound
        let version = String(body[start...].prefix { $0 != "/" })
        let versioned = index.replacingOccurrences(of: #"src="/js/"#, with: #"src="/v/\#(version)/js/"#)
            .replacingOccurrences(of: #"href="/app.css""#, with: #"href="/v/\#(version)/app.css""#)
        #expect(versioned != index)
        #expect(body == versioned)
        let main = try Self.text(of: Self.web.appendingPathComponent("js/app/main.js"))
        let module = server.get("/v/\(version)/js/app/main.js")
        #expect(module?.status == 200)
        #expect(module?.body == main)
        #expect(server.get("/js/app/main.js")?.body == main)
        #expect(server.get("/sw.js")?.status == 200)
        #expect(server.get("/app.css")?.status == 200)
        #expect(server.get("/v/\(version)/app.css")?.status == 200)
        #expect(server.get("/r/a-room")?.body == versioned)
        // The page's own tests stay in the repository.
        #expect(server.get("/test/support/keys.mjs")?.status == 404)
        #expect(await server.stop() == 0)
    }

    @Test func aDirectoryGivenWithWebWins() async throws {
        let folder = try TemporaryDirectory("web-given")
        let elsewhere = try Self.emptyDirectory(in: folder)
        let other = folder.url.appendingPathComponent("other")
        try FileManager.default.createDirectory(
            at: other.appendingPathComponent("js"),
            withIntermediateDirectories: true
        )
        let index = "<!doctype html><title>another page</title>\n"
        try Data(index.utf8).write(to: other.appendingPathComponent("index.html"))
        try Data("export const other = 1;\n".utf8).write(to: other.appendingPathComponent("js/other.js"))
        let server = try await ServerProcess.start(
            data: folder.url.appendingPathComponent("data"),
            arguments: ["--web", other.path],
            directory: elsewhere
        )
        let page = server.get("/")
        #expect(page?.status == 200)
        #expect(page?.body == index)
        #expect(server.get("/js/other.js")?.status == 200)
        #expect(server.get("/js/app/main.js")?.status == 404)
        #expect(await server.stop() == 0)
    }

    /// A working directory with nothing in it, so no `Web/` can be found there.
    private static func emptyDirectory(in folder: TemporaryDirectory) throws -> URL {
        let directory = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func text(of file: URL) throws -> String {
        String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }
}

/// What `inkwell serve` refuses to start with, and the pages it keeps to itself.
@Suite struct ServeRefusalTests {
    @Test func aDataDirectoryInsideTheWebRootStopsTheServer() async throws {
        let folder = try TemporaryDirectory("serve-refused")
        let web = folder.url.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
        try Data("<!doctype html>\n".utf8).write(to: web.appendingPathComponent("index.html"))
        let child = try ChildProcess(["serve", "--port", "0", "--web", web.path, "--data", web.path + "/data"])
        let status = await child.waitForExit(timeout: .seconds(30))
        #expect(status != 0)
        #expect(child.standardError.contains("lies inside the web root"), "\(child.standardError)")
        #expect(!child.standardOutput.contains("listening on"))
        #expect(!FileManager.default.fileExists(atPath: web.path + "/data"))
    }

    @Test func theBenchmarkPageIsServedOnlyForDevelopment() async throws {
        let folder = try TemporaryDirectory("serve-test-pages")
        let plain = try await ServerProcess.start(
            data: folder.url.appendingPathComponent("a"),
            arguments: ["--web", ServeWebClientTests.web.path]
        )
        #expect(plain.get("/bench/pan-zoom.html")?.status == 404)
        #expect(plain.get("/test/browser/harness.py")?.status == 404)
        #expect(plain.get("/Swift/WebClient.swift")?.status == 404)
        #expect(plain.get("/js/app/main.js")?.status == 200)
        #expect(await plain.stop() == 0)
        let development = try await ServerProcess.start(
            data: folder.url.appendingPathComponent("b"),
            arguments: ["--web", ServeWebClientTests.web.path, "--serve-test-pages"]
        )
        #expect(development.get("/bench/pan-zoom.html")?.status == 200)
        #expect(await development.stop() == 0)
    }
}
