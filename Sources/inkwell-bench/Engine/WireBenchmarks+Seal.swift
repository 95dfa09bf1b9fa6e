import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

extension WireBenchmarks {
    /// What sealing costs W1's changes (1,000 one-point changes of one stroke), plain and sealed in the
    /// same run: the bytes a pack gains, AES-256-GCM alone on a change's body (seal, open), and the whole
    /// pack path (encode, seal and sign; verify, open and decode), for each change pushed as its own
    /// pack and for the 1,000 as one catch-up pack; and a presence of live ink, sealed and opened.
    /// Times are in CPU seconds of this thread, plain and sealed measured in turn.
    func sealing() -> [Figure] {
        var random = SplitMix64(seed: 13)
        var replica = BenchReplica(random: &random)
        let (points, style) = AnchorWorkloads.w1Stroke()
        let updates = AnchorWorkloads.w1Updates(&replica, points: points, style: style)
        let author = replica.key
        let key = RoomKey.generate(using: &random)
        let room = "Kq3Zt0aLw9PxYbN2mR7sVc"
        let count = Double(updates.count)
        let micro = 1e6 / count
        var figures: [Figure] = []
        func figure(_ name: String, _ value: Double) {
            figures.append(Figure(workload: "wire_seal", figure: name, value: value))
        }

        // AES-GCM alone, on each change's pack body, with associated data the size of the pack's (90 bytes).
        let bodies = updates.map { PackCodec.compress(PackCodec.body([(room: "", change: $0)]), .deflate).bytes }
        let header = [UInt8](repeating: 0, count: 12)
        let associatedData = Sealing.associatedData("inkwell-pack-seal/1", room: room) + author.publicKey + header
        let nonces = bodies.map { _ in Sealing.randomNonce() }
        let sealedBodies = zip(bodies, nonces).map { body, nonce in
            Sealing.seal(body, key: key, nonce: nonce, associatedData: associatedData)
        }
        let (sealBody, openBody) = alternatingMedianSeconds(
            runs: runs,
            {
                for body in bodies {
                    blackHole(
                        Sealing.seal(body, key: key, nonce: Sealing.randomNonce(), associatedData: associatedData)
                    )
                }
            },
            {
                for (sealed, nonce) in zip(sealedBodies, nonces) {
                    blackHole(try! Sealing.open(sealed, key: key, nonce: nonce, associatedData: associatedData))
                }
            }
        )
        figure("w1_change_bytes", Double(updates.map(\.count).reduce(0, +)) / count)
        figure("w1_aes_gcm_seal_body_us_per_change", sealBody * micro)
        figure("w1_aes_gcm_open_body_us_per_change", openBody * micro)

        // Each change its own pack, as a push of one update would be.
        let packs = updates.map { Pack(room: room, changes: [$0]) }
        figures += compare(label: "w1_pack_per_change", packs: packs, changes: count, author: author, key: key)
        // The 1,000 changes as one pack, as a catch-up sends them.
        figures += compare(
            label: "w1_one_pack",
            packs: [Pack(room: room, changes: updates)],
            changes: count,
            repeats: 50,
            author: author,
            key: key
        )

        // Live ink as presence: 250 ms of drawing, 15 points, sealed and opened.
        let presence = Presence(
            room: room,
            device: author.replica,
            name: "Alice",
            colour: 0x2040_60FF,
            cursor: (points[15].x, points[15].y),
            // About what 15 points of residuals on the ink grid encode to; the codec does not look inside.
            ink: (board: "board", colour: 0x2040_60FF, width: 2, points: (0..<40).map { UInt8($0 * 5 % 251) })
        )
        let sealedPresence = presence.sealed(with: key)
        let iterations = 1_000
        let (sealPresence, openPresence) = alternatingMedianSeconds(
            runs: runs,
            { for _ in 0..<iterations { blackHole(presence.sealed(with: key)) } },
            { for _ in 0..<iterations { blackHole(try! sealedPresence.opened(with: key)) } }
        )
        let plainFrame = SyncCodec.encodePresence(presence).count
        let sealedFrame = SyncCodec.encodePresence(sealedPresence).count
        figure("presence_frame_bytes_plain", Double(plainFrame))
        figure("presence_frame_bytes_sealed", Double(sealedFrame))
        figure("presence_seal_us", sealPresence * 1e6 / Double(iterations))
        figure("presence_open_us", openPresence * 1e6 / Double(iterations))
        return figures
    }

    /// Plain against sealed for the same packs, per change: bytes, encode (and sign), decode (and verify).
    /// Each timing covers the packs `repeats` times, and plain and sealed alternate run by run, so that
    /// a machine busy with other work slows both alike.
    private func compare(
        label: String,
        packs: [Pack],
        changes: Double,
        repeats: Int = 1,
        author: AuthorKey,
        key: RoomKey
    ) -> [Figure] {
        let plain = packs.map { PackCodec.encode($0, signedBy: author) }
        let sealed = packs.map { PackCodec.encode($0, signedBy: author, sealedWith: key) }
        for (pack, bytes) in zip(packs, sealed) { precondition(try! PackCodec.decode(bytes, key: key).pack == pack) }
        let (encodePlain, encodeSealed) = alternatingMedianSeconds(
            runs: runs,
            {
                for _ in 0..<repeats { for pack in packs { blackHole(PackCodec.encode(pack, signedBy: author)) } }
            },
            {
                for _ in 0..<repeats {
                    for pack in packs { blackHole(PackCodec.encode(pack, signedBy: author, sealedWith: key)) }
                }
            }
        )
        let (decodePlain, decodeSealed) = alternatingMedianSeconds(
            runs: runs,
            { for _ in 0..<repeats { for bytes in plain { blackHole(try! PackCodec.decode(bytes)) } } },
            { for _ in 0..<repeats { for bytes in sealed { blackHole(try! PackCodec.decode(bytes, key: key)) } } }
        )
        let plainBytes = Double(plain.map(\.count).reduce(0, +))
        let sealedBytes = Double(sealed.map(\.count).reduce(0, +))
        let micro = 1e6 / changes / Double(repeats)
        return [
            Figure(workload: "wire_seal", figure: "\(label)_bytes_per_change_plain", value: plainBytes / changes),
            Figure(workload: "wire_seal", figure: "\(label)_bytes_per_change_sealed", value: sealedBytes / changes),
            Figure(
                workload: "wire_seal",
                figure: "\(label)_bytes_added_per_change",
                value: (sealedBytes - plainBytes) / changes
            ),
            Figure(workload: "wire_seal", figure: "\(label)_encode_us_per_change_plain", value: encodePlain * micro),
            Figure(workload: "wire_seal", figure: "\(label)_encode_us_per_change_sealed", value: encodeSealed * micro),
            Figure(workload: "wire_seal", figure: "\(label)_encode_ratio", value: encodeSealed / encodePlain),
            Figure(workload: "wire_seal", figure: "\(label)_decode_us_per_change_plain", value: decodePlain * micro),
            Figure(workload: "wire_seal", figure: "\(label)_decode_us_per_change_sealed", value: decodeSealed * micro),
            Figure(workload: "wire_seal", figure: "\(label)_decode_ratio", value: decodeSealed / decodePlain),
        ]
    }

    /// The medians of `first` and `second` over `runs` runs of each, taken in turn, in this thread's CPU
    /// seconds: on a machine busy with other work (builds beside the benchmark), time spent waiting for
    /// a core is left out, and what remains slows both sides alike.
    private func alternatingMedianSeconds(runs: Int, _ first: () -> Void, _ second: () -> Void) -> (Double, Double) {
        func cpuSeconds(_ body: () -> Void) -> Double {
            var start = timespec()
            var end = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
            body()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
            return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) * 1e-9
        }
        var times: ([Double], [Double]) = ([], [])
        for _ in 0..<runs {
            times.0.append(cpuSeconds(first))
            times.1.append(cpuSeconds(second))
        }
        return (times.0.sorted()[runs / 2], times.1.sorted()[runs / 2])
    }
}
