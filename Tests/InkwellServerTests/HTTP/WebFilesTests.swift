import Foundation
import Hummingbird
import HummingbirdTesting
import InkwellServer
import InkwellTesting
import Testing

@Suite struct WebFilesTests {
    @Test func onlyThePageItsStylesWorkerAndModulesAreServed() {
        for path in ["/", "/index.html", "/app.css", "/sw.js", "/js/app/main.js", "/js/a.js", "/js/app%2Fmain.js"] {
            #expect(WebFiles.serves(path), "\(path)")
        }
        for path in [
            "/test/support/keys.mjs", "/bench/pan-zoom.html", "/.git/config", "/.env", "/js/.hidden.js",
            "/js/app/.x/y.js", "/js/../app.css", "/js/%2e%2e/x.js", "/js/..%2Fsecret.js", "/js/app/main.mjs",
            "/js/data.json", "/js/", "/js", "/js//a.js", "/Package.swift", "/index.html/", "/app.css.map",
            "/js/a.js%00", "/js/a\\..\\b.js", "/%ZZ", "/r/room", "//index.html", "index.html",
        ] {
            #expect(!WebFiles.serves(path), "\(path)")
        }
    }

    @Test func testPagesOnlyWhenAskedAndNeverDotfiles() {
        #expect(WebFiles.serves("/test/support/keys.mjs", testPages: true))
        #expect(WebFiles.serves("/bench/pan-zoom.html", testPages: true))
        #expect(!WebFiles.serves("/test/.secret", testPages: true))
        #expect(!WebFiles.serves("/test/../data/packs.sqlite", testPages: true))
        #expect(!WebFiles.serves("/other/page.html", testPages: true))
    }

    /// A web root holding more than the page: everything but the page's files answers 404.
    @Test func theServerGivesNothingElseFromTheWebRoot() async throws {
        let fixture = try HTTPFixture()
        let web = fixture.webFolder
        for file in [
            "index.html", "app.css", "sw.js", "js/app/main.js", "js/notes.txt", "test/page.html", "bench/run.js",
            ".git/config", ".env", "data/packs.sqlite", "secret.txt",
        ] {
            try web.write(file, "contents of \(file)\n")
        }
        try await fixture.run { client in
            for path in ["/", "/index.html", "/app.css", "/sw.js", "/js/app/main.js", "/r/a-room"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
            }
            for path in [
                "/js/notes.txt", "/test/page.html", "/bench/run.js", "/.git/config", "/.env", "/data/packs.sqlite",
                "/secret.txt", "/js/%2e%2e/secret.txt", "/js/..%2Fsecret.txt", "/js/app/..%2F..%2F.env",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(!response.text.contains("contents of"), "\(path)")
            }
        }
    }

    @Test func testPagesAreServedWhenTurnedOn() async throws {
        let fixture = try HTTPFixture(servesTestPages: true)
        try fixture.webFolder.write("test/page.html", "a test page\n")
        try fixture.webFolder.write(".env", "secret\n")
        try await fixture.run { client in
            let page = try await client.execute(uri: "/test/page.html", method: .get)
            #expect(page.text == "a test page\n")
            let dotfile = try await client.execute(uri: "/.env", method: .get)
            #expect(dotfile.status == .notFound)
        }
    }
}
