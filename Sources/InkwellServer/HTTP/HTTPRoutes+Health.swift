import Hummingbird
import Prometheus

extension HTTPRoutes {
    private struct Health: Encodable {
        var status: String
        var reason: String?
        var uptimeSeconds: Double?
        /// `reachable` or `unreachable`: whether the store's database answered just now.
        var database: String?

        enum CodingKeys: String, CodingKey {
            case status
            case reason
            case uptimeSeconds = "uptime_seconds"
            case database
        }
    }

    /// `GET /healthz`, whether the process is alive: 200 `{"status":"ok","uptime_seconds":…,"database":…}`
    /// (a database that does not answer is reported, but a restart of this process would not bring it
    /// back); 503 `{"status":"storage_failed","reason":…}` once the pack log has failed (until restart),
    /// or 503 `{"status":"draining"}` during shutdown.
    func health() async -> Response {
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
        let database = await log.isReachable() ? "reachable" : "unreachable"
        return .json(
            Health(status: "ok", uptimeSeconds: uptime, database: database),
            status: .ok,
            headers: [.cacheControl: "no-store"]
        )
    }

    /// `GET /readyz`, whether to send this node clients: 200 `{"status":"ready","database":"reachable"}`;
    /// 503 with `status` `storage_failed`, `draining` or `database_unreachable` otherwise. A load
    /// balancer takes a node out while its database does not answer, and back once it does.
    func readiness() async -> Response {
        let headers: HTTPFields = [.cacheControl: "no-store"]
        if let fault = storageFault() {
            return .json(
                Health(status: "storage_failed", reason: fault.reason),
                status: .serviceUnavailable,
                headers: headers
            )
        }
        if isDraining() { return .json(Health(status: "draining"), status: .serviceUnavailable, headers: headers) }
        guard await log.isReachable() else {
            return .json(
                Health(status: "database_unreachable", database: "unreachable"),
                status: .serviceUnavailable,
                headers: headers
            )
        }
        return .json(Health(status: "ready", database: "reachable"), status: .ok, headers: headers)
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
