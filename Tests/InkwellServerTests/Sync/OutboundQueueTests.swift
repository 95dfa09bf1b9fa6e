import NIOCore
import Synchronization
import Testing

@testable import InkwellServer

/// The queue between a connection's producers and its pump: drains started once, batches, budget,
/// and presence that a newer one from the same sender replaces.
// A reader never woken would wait for ever: the limit turns that into a failure.
@Suite(.timeLimit(.minutes(1))) struct OutboundQueueTests {
    private func frame(_ byte: UInt8, size: Int = 10) -> ByteBuffer {
        ByteBuffer(bytes: [UInt8](repeating: byte, count: size))
    }

    private func bytes(_ items: [Outbound]) -> [UInt8] {
        items.map { item in
            switch item {
            case .frame(let buffer), .presence(let buffer): buffer.getInteger(at: buffer.readerIndex) ?? 0
            case .catchUp, .close: 0
            }
        }
    }

    /// The items a take found, or nil when it found none.
    private func taken(_ queue: OutboundQueue) -> [UInt8]? {
        guard case .items(let items) = queue.take() else { return nil }
        return bytes(items)
    }

    @Test func theDrainTakesEverythingWaitingInOrder() {
        let queue = OutboundQueue(budget: 1_000)
        #expect(queue.offer(frame(1)).accepted)
        #expect(queue.push(.catchUp(room: "r")).accepted)
        #expect(queue.offer(frame(2)).accepted)
        #expect(taken(queue) == [1, 0, 2])
        #expect(queue.bytesWaiting == 20)
        queue.written(bytes: 20)
        #expect(queue.bytesWaiting == 0)
    }

    @Test func onlyTheFirstItemIntoAnIdleQueueStartsADrain() {
        let queue = OutboundQueue(budget: 1_000)
        #expect(queue.offer(frame(1)) == .started)
        #expect(queue.offer(frame(2)) == .queued)
        #expect(queue.push(.catchUp(room: "r")) == .queued)
        #expect(taken(queue) == [1, 2, 0])
        // Taken but not found empty yet: the drain is still under way, and will take this one.
        #expect(queue.offer(frame(3)) == .queued)
        #expect(taken(queue) == [3])
        guard case .idle = queue.take() else {
            Issue.record("an empty queue that is not finished is idle")
            return
        }
        #expect(queue.offerPresence(frame(4), key: .init(sender: 1, room: "r")) == .started)
    }

    @Test func aFullQueueRefusesOffersButNotPushes() {
        let queue = OutboundQueue(budget: 25)
        #expect(queue.offer(frame(1)).accepted)
        #expect(queue.offer(frame(2)).accepted)
        #expect(queue.offer(frame(3)) == .refused)
        #expect(queue.push(.frame(frame(4))).accepted)
        #expect(queue.bytesWaiting == 30)
        // Taken but not yet written still counts.
        _ = queue.take()
        #expect(queue.offer(frame(5)) == .refused)
        queue.written(bytes: 30)
        #expect(queue.offer(frame(6)).accepted)
    }

    @Test func aFrameLargerThanTheBudgetIsAcceptedIntoAnEmptyQueue() {
        let queue = OutboundQueue(budget: 5)
        #expect(queue.offer(frame(1, size: 50)).accepted)
        #expect(queue.offer(frame(2, size: 1)) == .refused)
    }

    @Test func newerPresenceFromTheSameSenderReplacesWaitingPresenceAndQueuesLast() {
        let queue = OutboundQueue(budget: 1_000)
        let alice = OutboundQueue.PresenceKey(sender: 1, room: "r")
        let bob = OutboundQueue.PresenceKey(sender: 2, room: "r")
        let aliceElsewhere = OutboundQueue.PresenceKey(sender: 1, room: "s")
        #expect(queue.offerPresence(frame(1), key: alice).accepted)
        #expect(queue.offerPresence(frame(2), key: bob).accepted)
        #expect(queue.offer(frame(3)).accepted)
        #expect(queue.offerPresence(frame(4, size: 30), key: alice).accepted)
        #expect(queue.offerPresence(frame(5), key: aliceElsewhere).accepted)
        #expect(queue.bytesWaiting == 60)
        #expect(taken(queue) == [2, 3, 4, 5])
        // Once taken, presence is not replaced: the next one queues anew.
        #expect(queue.offerPresence(frame(6), key: alice).accepted)
        #expect(taken(queue) == [6])
    }

    @Test func replacingPresenceCountsOnlyTheDifferenceAgainstTheBudget() {
        let queue = OutboundQueue(budget: 20)
        let alice = OutboundQueue.PresenceKey(sender: 1, room: "r")
        #expect(queue.offer(frame(1)).accepted)
        #expect(queue.offerPresence(frame(2), key: alice).accepted)
        #expect(queue.offerPresence(frame(3), key: alice).accepted)
        #expect(queue.bytesWaiting == 20)
        #expect(queue.offerPresence(frame(4, size: 11), key: alice) == .refused)
    }

    @Test func aFinishedQueueHandsOverWhatIsLeftThenEnds() {
        let queue = OutboundQueue(budget: 100)
        #expect(queue.offer(frame(1)) == .started)
        #expect(queue.finish() == .queued)
        #expect(queue.offer(frame(2)) == .refused)
        #expect(taken(queue) == [1])
        guard case .finished = queue.take() else {
            Issue.record("a finished queue that is empty says so")
            return
        }
    }

    @Test func finishingAnIdleQueueStartsADrainThatFindsItFinished() {
        let queue = OutboundQueue(budget: 100)
        #expect(queue.finish() == .started)
        #expect(queue.finish() == .refused)
        guard case .finished = queue.take() else {
            Issue.record("a finished queue that is empty says so")
            return
        }
    }

    @Test func presenceIntoAnIdleQueueIsHeldUntilSomethingElseComes() {
        let queue = OutboundQueue(budget: 1_000, holdsPresence: true)
        let alice = OutboundQueue.PresenceKey(sender: 1, room: "r")
        let bob = OutboundQueue.PresenceKey(sender: 2, room: "r")
        #expect(queue.offerPresence(frame(1), key: alice) == .held(hold: 1))
        #expect(queue.offerPresence(frame(2), key: bob) == .queued)
        // A pack ends the hold and starts a drain now; the held drain finds it has nothing to do.
        #expect(queue.offer(frame(3)) == .started)
        #expect(!queue.claim(hold: 1))
        #expect(taken(queue) == [1, 2, 3])
        guard case .idle = queue.take() else {
            Issue.record("an empty queue that is not finished is idle")
            return
        }
        // The next hold is a new one, and a drain that claims it in time takes what gathered.
        #expect(queue.offerPresence(frame(4), key: alice) == .held(hold: 2))
        #expect(queue.offerPresence(frame(5), key: alice) == .queued)
        #expect(queue.claim(hold: 2))
        #expect(!queue.claim(hold: 2))
        #expect(taken(queue) == [5])
        // While a drain is under way, presence rides with it and is not held.
        #expect(queue.offerPresence(frame(6), key: bob) == .queued)
    }

    @Test func finishingEndsAHold() {
        let queue = OutboundQueue(budget: 100, holdsPresence: true)
        #expect(queue.offerPresence(frame(1), key: .init(sender: 1, room: "r")) == .held(hold: 1))
        #expect(queue.finish() == .started)
        #expect(!queue.claim(hold: 1))
        #expect(taken(queue) == [1])
    }

    @Test func aQueueThatDoesNotHoldPresenceStartsAtOnce() {
        let queue = OutboundQueue(budget: 100)
        #expect(queue.offerPresence(frame(1), key: .init(sender: 1, room: "r")) == .started)
    }

    @Test func pushesPassTheBudgetOnlyUpToTheCeilingThenOverflow() {
        let queue = OutboundQueue(budget: 20, headroom: 15)
        #expect(queue.ceiling == 35)
        #expect(queue.offer(frame(1, size: 20)).accepted)
        #expect(queue.push(.frame(frame(2, size: 15))).accepted)
        // Zero-byte items (a catch-up, a close) always fit; another byte does not.
        #expect(queue.push(.catchUp(room: "r")).accepted)
        #expect(queue.push(.frame(frame(3, size: 1))) == .overflowed)
        #expect(!OutboundQueue.Admission.overflowed.accepted)
        #expect(queue.bytesWaiting == 35, "an overflowed push queues nothing")
        #expect(taken(queue) == [1, 2, 0])
        queue.written(bytes: 35)
        #expect(queue.push(.frame(frame(4, size: 1))).accepted)
    }

    @Test func aFramePushedIntoAnEmptyQueueNeverOverflows() {
        let queue = OutboundQueue(budget: 5, headroom: 0)
        #expect(queue.push(.frame(frame(1, size: 50))).accepted)
        #expect(queue.push(.frame(frame(2, size: 1))) == .overflowed)
    }

    @Test func waitingForRoomReturnsAtOnceWithinTheBudget() async {
        let queue = OutboundQueue(budget: 20)
        #expect(queue.offer(frame(1, size: 20)).accepted)
        await queue.waitForRoom()
    }

    @Test func waitingForRoomReturnsOnceTheWriterBringsTheBytesDownToTheBudget() async {
        let queue = OutboundQueue(budget: 20)
        #expect(queue.offer(frame(1, size: 20)).accepted)
        #expect(queue.push(.frame(frame(2, size: 15))).accepted)
        let returned = Flag()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await queue.waitForRoom()
                returned.set()
            }
            try? await Task.sleep(for: .milliseconds(50))
            #expect(!returned.isSet, "35 bytes wait, over the budget of 20")
            _ = queue.take()
            queue.written(bytes: 10)
            try? await Task.sleep(for: .milliseconds(50))
            #expect(!returned.isSet, "25 bytes still wait")
            queue.written(bytes: 5)
            await group.waitForAll()
        }
        #expect(returned.isSet)
    }

    @Test func finishingReleasesTheReaderWaitingForRoom() async {
        let queue = OutboundQueue(budget: 1)
        #expect(queue.push(.frame(frame(1, size: 10))).accepted)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await queue.waitForRoom() }
            try? await Task.sleep(for: .milliseconds(20))
            _ = queue.finish()
            await group.waitForAll()
        }
    }
}
