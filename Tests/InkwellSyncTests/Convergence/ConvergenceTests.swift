import InkwellSync
import InkwellTesting
import Testing

@Suite struct ConvergenceTests {
    /// 8 replicas × 10,000 edits each over a lossy, duplicating, partitioned network with skewed clocks.
    /// `INKWELL_CONVERGENCE_SCALE=10` for a longer run; `INKWELL_SEED` reproduces a failure.
    @Test func everyReplicaEndsByteIdentical() throws {
        let configuration = ConvergenceHarness<Document>.Configuration.fromEnvironment()
        print(
            "convergence: \(configuration.replicas) replicas × \(configuration.operationsPerReplica) edits, "
                + "INKWELL_SEED=\(configuration.seed)"
        )
        let report = try ConvergenceHarness<Document>.run(configuration)
        print("convergence: \(report)")
        #expect(report.changes == configuration.replicas * configuration.operationsPerReplica)
        #expect(report.faultsMissing.isEmpty, "faults that never happened: \(report.faultsMissing)")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func smallRunsConvergeToo(seed: UInt64) throws {
        var configuration = ConvergenceHarness<Document>.Configuration(
            replicas: 3,
            operationsPerReplica: 200,
            seed: seed
        )
        configuration.partitionProbability = 0.05
        _ = try ConvergenceHarness<Document>.run(configuration)
    }

    /// Every order of a handful of conflicting edits, each also applied twice, gives one state.
    @Test func allDeliveryOrdersOfConflictingEditsAgree() {
        let a = Pool.replicas[0]
        let b = Pool.replicas[1]
        let key = AtomKey(1, "colour")
        func edit(
            _ replica: ReplicaID,
            _ seq: UInt64,
            _ wall: UInt64,
            _ payload: Document.Edit
        ) -> Change<Document.Edit> {
            Change(id: ChangeID(replica: replica, seq: seq), stamp: Stamp(wallMilliseconds: wall), payload: payload)
        }
        let addA = edit(a, 1, 10, .addTag(7))
        let changes = [
            addA,
            edit(b, 1, 10, .setField(key, 1)),
            edit(a, 2, 11, .setField(key, 2)),
            edit(b, 2, 12, .removeTags([addA.opStamp(0)])),
            edit(a, 3, 12, .addTag(7)),
            edit(b, 3, 13, .removeMember(3)),
            edit(a, 4, 13, .addMember(3)),
        ]
        let states = AllOrders.distinctStates(of: Document.self, applying: changes)
        #expect(states.count == 1)
        var expected = Document()
        for change in changes { expected.apply(change) }
        #expect(expected.fields[key] == 2)
        #expect(expected.tags.contains(7), "the add B had not seen survives B's remove")
        #expect(!expected.members.contains(3))
    }

    /// A model whose state depends on delivery order must be caught, naming its seed.
    @Test func theHarnessCatchesAnOrderDependentModel() {
        struct Journal: ReplicatedModel {
            var entries: [UInt64] = []
            func randomOperation(at position: OpStamp, using generator: inout some RandomNumberGenerator) -> UInt64 {
                generator.next()
            }
            mutating func apply(_ change: Change<UInt64>) { entries.append(change.payload) }
            func canonicalEncoding() -> [UInt8] { entries.canonicalBytes }
        }
        #expect {
            try ConvergenceHarness<Journal>.run(.init(replicas: 3, operationsPerReplica: 50, seed: 42))
        } throws: { error in
            String(describing: error).contains("INKWELL_SEED=42")
        }
    }
}
