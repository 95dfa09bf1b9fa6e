import Foundation
import Hummingbird
import HummingbirdTesting
import InkwellTesting
import Testing

@testable import InkwellServer

/// The page names its modules and stylesheet under `/v/VERSION/`, a hash of their bytes, which are answered
/// as immutable; the page itself is revalidated, and any change to a file is a new version.
@Suite struct WebShellTests {
    static let index = """
        <!doctype html><title>Inkwell</title><link rel="stylesheet" href="/app.css" />\
        <script type="module" src="/js/app/main.js"></script>

        """

    static func version(in page: String) -> String? {
        guard let range = page.range(of: #"src="/v/"#) else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "/" })
    }

    @Test func thePageNamesItsFilesUnderAVersionThatIsAnsweredAsImmutable() async throws {
        let fixture = try HTTPFixture()
        try fixture.webFolder.write("index.html", Self.index)
        try fixture.webFolder.write("app.css", "body { margin: 0 }\n")
        try fixture.webFolder.write("js/app/main.js", "import { one } from './one.js';\n")
        try fixture.webFolder.write("js/app/one.js", "export const one = 1;\n")
        try await fixture.run { client in
            let root = try await client.execute(uri: "/", method: .get)
            #expect(root.headers[.cacheControl] == "no-cache")
            let version = try #require(Self.version(in: root.text))
            #expect(version.count == 16 && version.allSatisfy(\.isHexDigit), "\(version)")
            #expect(root.text.contains(#"<link rel="stylesheet" href="/v/\#(version)/app.css" />"#))
            #expect(root.text.contains(#"<script type="module" src="/v/\#(version)/js/app/main.js">"#))
            let room = try await client.execute(uri: "/r/a-room", method: .get)
            #expect(room.text == root.text)

            // The module its import names, relative to the versioned entry, is versioned too.
            let module = try await client.execute(uri: "/v/\(version)/js/app/one.js", method: .get)
            #expect(module.status == .ok)
            #expect(module.text == "export const one = 1;\n")
            #expect(module.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let style = try await client.execute(uri: "/v/\(version)/app.css", method: .get)
            #expect(style.headers[.cacheControl] == "public, max-age=31536000, immutable")
            // At their own paths, as the page's tests import them, they are revalidated.
            let plain = try await client.execute(uri: "/js/app/one.js", method: .get)
            #expect(plain.headers[.cacheControl] == "no-cache")

            // Another version gets today's file, not to be kept.
            let stale = try await client.execute(uri: "/v/0123456789abcdef/js/app/one.js", method: .get)
            #expect(stale.status == .ok)
            #expect(stale.headers[.cacheControl] == "no-cache")

            // Only modules and the stylesheet are versioned, and the same rules guard them.
            for path in [
                "/v/\(version)/sw.js", "/v/\(version)/index.html", "/v/\(version)/js/../index.html",
                "/v/\(version)/js/%2e%2e/app.css", "/v/\(version)/js/app/main.mjs", "/v/\(version)", "/v/",
            ] {
                let refused = try await client.execute(uri: path, method: .get)
                #expect(refused.status == .notFound, "\(path)")
            }

            // A changed file is a new version, once the server looks at the files again.
            try fixture.webFolder.write("js/app/one.js", "export const one = 22;\n")
            try await Task.sleep(for: WebShell.recheckInterval + .milliseconds(100))
            let again = try await client.execute(uri: "/", method: .get)
            let next = try #require(Self.version(in: again.text))
            #expect(next != version)
            let changed = try await client.execute(uri: "/v/\(next)/js/app/one.js", method: .get)
            #expect(changed.text == "export const one = 22;\n")
            #expect(changed.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let old = try await client.execute(uri: "/v/\(version)/js/app/one.js", method: .get)
            #expect(old.headers[.cacheControl] == "no-cache")
        }
    }
}
