import Foundation
import Hummingbird
import HummingbirdTesting
import InkwellServer
import Prometheus
import Testing

@Suite struct HealthAndMetricsRoutesTests {
    @Test func healthSaysOkWithUptimeUntilTheServerDrains() async throws {
        let draining = Flag()
        let fixture = try HTTPFixture(startedAt: .now - .seconds(90), isDraining: { draining.isSet })
        try await fixture.run { client in
            let healthy = try await client.execute(uri: "/healthz", method: .get)
            #expect(healthy.status == .ok)
            #expect(healthy.headers[.contentType] == "application/json; charset=utf-8")
            let body = try healthy.json()
            #expect(body["status"] as? String == "ok")
            let uptime = try #require(body["uptime_seconds"] as? Double)
            #expect(uptime >= 90 && uptime < 3_600)

            draining.set()
            let drained = try await client.execute(uri: "/healthz", method: .get)
            #expect(drained.status == .serviceUnavailable)
            #expect(drained.text == #"{"status":"draining"}"#)
        }
    }

    @Test func healthSaysWhyOnceStorageHasFailedEvenWhileDraining() async throws {
        let failed = Flag()
        let fixture = try HTTPFixture(isDraining: { true }, storageFault: { failed.isSet ? .diskFull : nil })
        try await fixture.run { client in
            #expect(try await client.execute(uri: "/healthz", method: .get).text == #"{"status":"draining"}"#)
            failed.set()
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.cacheControl] == "no-store")
            let body = try response.json()
            #expect(body.count == 2)
            #expect(body["status"] as? String == "storage_failed")
            #expect(body["reason"] as? String == "the disk holding the pack log is full")
        }
    }

    @Test func metricsExposeTheServersCounts() async throws {
        let fixture = try HTTPFixture()
        fixture.metrics.packsStored.increment(by: Int64(7))
        fixture.metrics.connectionsTotal.increment()
        fixture.metrics.protocolError(reason: "helloRequired")
        fixture.metrics.commitSeconds.record(.milliseconds(3))
        try await fixture.run { client in
            _ = try await client.execute(uri: "/healthz", method: .get)
            _ = try await client.execute(uri: "/nowhere", method: .get)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4")
            let lines = Set(response.text.split(separator: "\n").map(String.init))
            #expect(lines.contains("inkwell_packs_stored_total 7"))
            #expect(lines.contains("inkwell_connections_total 1"))
            #expect(lines.contains(#"inkwell_protocol_errors_total{reason="helloRequired"} 1"#))
            #expect(lines.contains(#"inkwell_commit_seconds_bucket{le="0.005"} 1"#))
            #expect(lines.contains(#"inkwell_http_requests_total{method="GET",status="200"} 1"#))
            #expect(lines.contains(#"inkwell_http_requests_total{method="GET",status="404"} 1"#))
            for name in ServerMetricsTests.unlabelled + ["inkwell_fanout_seconds", "inkwell_commit_batch_packs"] {
                #expect(lines.contains { $0.hasPrefix("# TYPE \(name) ") }, "\(name)")
            }
        }
    }
}
