import Foundation
import InkwellServer
import InkwellTesting
import Logging
import Testing

@Suite struct ServerConfigurationTests {
    /// The web root's files are given out: a data directory there would be one mistake from being served.
    @Test func aDataDirectoryInsideTheWebRootIsRefused() throws {
        let folder = try TemporaryDirectory("configuration")
        let web = folder.path + "/web"
        try FileManager.default.createDirectory(atPath: web, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: web)
        for data in [
            web, web + "/", web + "/data", web + "/deeper/data", folder.path + "/other/../web/data",
            folder.path + "/link/data",
        ] {
            let configuration = ServerConfiguration(dataDirectory: data, webRoot: web)
            #expect(throws: ServerConfigurationError.dataInsideWebRoot(data: data, webRoot: web), "\(data)") {
                try configuration.validate()
            }
        }
        for data in [folder.path + "/data", folder.path + "/webdata", folder.path] {
            #expect(throws: Never.self, "\(data)") {
                try ServerConfiguration(dataDirectory: data, webRoot: web).validate()
            }
        }
    }

    @Test func theServerStartsNothingWithAConfigurationItRefuses() throws {
        let folder = try TemporaryDirectory("configuration-server")
        let data = folder.path + "/data"
        #expect(throws: ServerConfigurationError.self) {
            _ = try SyncServer(
                configuration: ServerConfiguration(dataDirectory: data, webRoot: folder.path),
                logger: Logger(label: "test")
            )
        }
        #expect(!FileManager.default.fileExists(atPath: data))
    }

    @Test func publicURLsAreOrigins() throws {
        for url in ["https://board.example.com", "http://localhost:9999/", "HTTPS://Board.Example.com:8443"] {
            #expect(throws: Never.self, "\(url)") {
                try ServerConfiguration(dataDirectory: "data", publicURLs: [URL(string: url)!]).validate()
            }
        }
        for url in [
            "ftp://board.example.com", "https://board.example.com/app", "https://board.example.com?x=1",
            "https://u@board.example.com", "board.example.com",
        ] {
            #expect(throws: ServerConfigurationError.self, "\(url)") {
                try ServerConfiguration(dataDirectory: "data", publicURLs: [URL(string: url)!]).validate()
            }
        }
    }
}
