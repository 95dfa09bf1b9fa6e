import Hummingbird
import Prometheus

extension HTTPRoutes {
    private struct Health: Encodable {
        var status: String
        var reason: String?
        var uptimeSeconds: Double?

        enum CodingKeys: String, CodingKey {
            case status
            case reason
            case uptimeSeconds = "uptime_seconds"
        }
    }

    /// `GET /healthz`: 200 `{"status":"ok","uptime_seconds":…}`; 503 `{"status":"storage_failed","reason":…}`
    /// once the pack log has failed (until restart), or 503 `{"status":"draining"}` during shutdown.
    func health() -> Response {
        if let fault = storageFault() {
            return .json(
                Health(status: "storage_failed", reason: fault.reason),
                status: .serviceUnavailable,
                headers: [.cacheControl: "no-store"]
            )
        }
        if isDraining() {
            return .json(Health(status: "draining"), status: .serviceUnavailable, headers: [.cacheControl: "no-store"])
        }
        let uptime = (ContinuousClock.now - startedAt).seconds
        return .json(Health(status: "ok", uptimeSeconds: uptime), status: .ok, headers: [.cacheControl: "no-store"])
    }

    /// `GET /metrics`: the Prometheus text exposition.
    func exposition() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer()))
        )
    }
}
