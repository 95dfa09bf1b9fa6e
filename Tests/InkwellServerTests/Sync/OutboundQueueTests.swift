import NIOCore
import Testing

@testable import InkwellServer

/// The queue between a connection's producers and its writer: batches, budget, and presence that a
/// newer one from the same sender replaces.
@Suite struct OutboundQueueTests {
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

    @Test func theWriterTakesEverythingWaitingInOrder() async {
        let queue = OutboundQueue(budget: 1_000)
        #expect(queue.offer(frame(1)))
        queue.push(.catchUp(room: "r"))
        #expect(queue.offer(frame(2)))
        let batch = await queue.next()
        #expect(batch.map(bytes) == [1, 0, 2])
        #expect(queue.bytesWaiting == 20)
        queue.written(bytes: 20)
        #expect(queue.bytesWaiting == 0)
    }

    @Test func aFullQueueRefusesOffersButNotPushes() async {
        let queue = OutboundQueue(budget: 25)
        #expect(queue.offer(frame(1)))
        #expect(queue.offer(frame(2)))
        #expect(!queue.offer(frame(3)))
        queue.push(.frame(frame(4)))
        #expect(queue.bytesWaiting == 30)
        // Taken but not yet written still counts.
        _ = await queue.next()
        #expect(!queue.offer(frame(5)))
        queue.written(bytes: 30)
        #expect(queue.offer(frame(6)))
    }

    @Test func aFrameLargerThanTheBudgetIsAcceptedIntoAnEmptyQueue() {
        let queue = OutboundQueue(budget: 5)
        #expect(queue.offer(frame(1, size: 50)))
        #expect(!queue.offer(frame(2, size: 1)))
    }

    @Test func newerPresenceFromTheSameSenderReplacesWaitingPresenceAndQueuesLast() async {
        let queue = OutboundQueue(budget: 1_000)
        let alice = OutboundQueue.PresenceKey(sender: 1, room: "r")
        let bob = OutboundQueue.PresenceKey(sender: 2, room: "r")
        let aliceElsewhere = OutboundQueue.PresenceKey(sender: 1, room: "s")
        #expect(queue.offerPresence(frame(1), key: alice))
        #expect(queue.offerPresence(frame(2), key: bob))
        #expect(queue.offer(frame(3)))
        #expect(queue.offerPresence(frame(4, size: 30), key: alice))
        #expect(queue.offerPresence(frame(5), key: aliceElsewhere))
        #expect(queue.bytesWaiting == 60)
        #expect(await queue.next().map(bytes) == [2, 3, 4, 5])
        // Once taken, presence is not replaced: the next one queues anew.
        #expect(queue.offerPresence(frame(6), key: alice))
        #expect(await queue.next().map(bytes) == [6])
    }

    @Test func replacingPresenceCountsOnlyTheDifferenceAgainstTheBudget() {
        let queue = OutboundQueue(budget: 20)
        let alice = OutboundQueue.PresenceKey(sender: 1, room: "r")
        #expect(queue.offer(frame(1)))
        #expect(queue.offerPresence(frame(2), key: alice))
        #expect(queue.offerPresence(frame(3), key: alice))
        #expect(queue.bytesWaiting == 20)
        #expect(!queue.offerPresence(frame(4, size: 11), key: alice))
    }

    @Test func aFinishedQueueHandsOverWhatIsLeftThenEnds() async {
        let queue = OutboundQueue(budget: 100)
        #expect(queue.offer(frame(1)))
        queue.finish()
        #expect(!queue.offer(frame(2)))
        #expect(await queue.next().map(bytes) == [1])
        #expect(await queue.next() == nil)
    }

    @Test func aWaitingWriterWakesForANewFrame() async {
        let queue = OutboundQueue(budget: 100)
        async let batch = queue.next()
        try? await Task.sleep(for: .milliseconds(20))
        #expect(queue.offer(frame(7)))
        #expect(await batch.map(bytes) == [7])
    }
}
