import InkwellSync
import InkwellTesting
import Testing

/// Every mergeable type is held to commutativity, associativity and idempotence on 1,000 random cases.
@Suite struct MergeLawTests {
    @Test func maxIsAJoin() async { await MergeLaws.check(Generators.max) }
    @Test func gCounterIsAJoin() async { await MergeLaws.check(Generators.gCounter) }
    @Test func pnCounterIsAJoin() async { await MergeLaws.check(Generators.pnCounter) }
    @Test func lwwRegisterIsAJoin() async { await MergeLaws.check(Generators.lwwRegister) }
    @Test func gSetIsAJoin() async { await MergeLaws.check(Generators.gSet) }
    @Test func twoPhaseSetIsAJoin() async { await MergeLaws.check(Generators.twoPhaseSet) }
    @Test func orSetIsAJoin() async { await MergeLaws.check(Generators.orSet) }
    @Test func lwwMapIsAJoin() async { await MergeLaws.check(Generators.lwwMap) }
    @Test func versionVectorIsAJoin() async { await MergeLaws.check(Generators.versionVector) }
    @Test func cutIsAJoin() async { await MergeLaws.check(Generators.cut) }
    @Test func baselineIsAJoin() async { await MergeLaws.check(Generators.baseline) }
    @Test func textSequenceIsAJoin() async { await MergeLaws.check(Generators.textSequence) }
    @Test func mapOfMapsOfCountersIsAJoin() async { await MergeLaws.check(Generators.nested) }
}
