import InkwellGeometry
import InkwellTesting
import Testing

@Suite struct SpatialIndexTests {
    /// A plain list of (id, boxes) in insertion order: what the index must agree with.
    struct Model {
        var items: [(id: Int, boxes: [Rect])] = []

        func query(_ rect: Rect) -> [Int] {
            items.filter { $0.boxes.contains { $0.intersects(rect) } }.map(\.id)
        }
    }

    static func randomBoxes(_ random: inout InkRandom) -> [Rect] {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in
            let x = random.coordinate(-500...1500)
            let y = random.coordinate(-500...1500)
            let big = Int.random(in: 0..<20, using: &random) == 0
            let width = random.coordinate(0...(big ? 3000 : 60))
            let height = random.coordinate(0...(big ? 3000 : 60))
            return Rect(minX: x, minY: y, maxX: x + width, maxY: y + height)
        }
    }

    @Test func queriesMatchALinearScanThroughInsertsUpdatesAndRemoves() {
        let seed = InkRandom.seed()
        print("SpatialIndexTests seed=\(seed)")
        var random = InkRandom(seed: seed)
        for cellSize in [16.0, 128, 1000] {
            var index = SpatialIndex<Int>(configuration: .init(cellSize: cellSize, maximumCellsPerBox: 64))
            var model = Model()
            var nextID = 0
            for step in 0..<2000 {
                let roll = Int.random(in: 0..<10, using: &random)
                if roll < 5 || model.items.isEmpty {
                    let boxes = Self.randomBoxes(&random)
                    let done1 = index.insert(nextID, boxes: boxes)
                    #expect(done1)
                    model.items.append((nextID, boxes))
                    nextID += 1
                } else if roll < 7 {
                    let position = Int.random(in: 0..<model.items.count, using: &random)
                    let boxes = Self.randomBoxes(&random)
                    let done2 = index.update(model.items[position].id, boxes: boxes)
                    #expect(done2)
                    model.items[position].boxes = boxes
                } else {
                    let position = Int.random(in: 0..<model.items.count, using: &random)
                    let done3 = index.remove(model.items[position].id)
                    #expect(done3)
                    model.items.remove(at: position)
                }
                let x = random.coordinate(-600...1600)
                let y = random.coordinate(-600...1600)
                let size = random.coordinate(0...200)
                let rect = Rect(minX: x, minY: y, maxX: x + size, maxY: y + size)
                #expect(index.query(rect) == model.query(rect), "seed \(seed) cell \(cellSize) step \(step)")
                if step % 100 == 0 { index.checkInvariants() }
            }
            index.checkInvariants()
            #expect(index.count == model.items.count)
            let everything = Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
            #expect(index.query(everything) == model.items.map(\.id))
        }
    }

    @Test func insertingTwiceAndUpdatingOrRemovingUnknownIDsChangeNothing() {
        var index = SpatialIndex<String>()
        let done4 = index.insert("a", bounds: Rect(minX: 0, minY: 0, maxX: 10, maxY: 10))
        #expect(done4)
        let done5 = !index.insert("a", bounds: Rect(minX: 50, minY: 50, maxX: 60, maxY: 60))
        #expect(done5)
        let done6 = !index.update("b", bounds: Rect(minX: 0, minY: 0, maxX: 1, maxY: 1))
        #expect(done6)
        let done7 = !index.remove("b")
        #expect(done7)
        #expect(index.query(Rect(minX: 5, minY: 5, maxX: 6, maxY: 6)) == ["a"])
        #expect(index.query(Rect(minX: 55, minY: 55, maxX: 56, maxY: 56)).isEmpty)
        index.checkInvariants()
    }

    @Test func resultsKeepInsertionOrderAcrossUpdates() {
        var index = SpatialIndex<Int>(configuration: .init(cellSize: 10))
        for id in [5, 3, 9, 1] { index.insert(id, bounds: Rect(minX: Double(id), minY: 0, maxX: 20, maxY: 5)) }
        index.update(5, bounds: Rect(minX: 0, minY: 0, maxX: 30, maxY: 30))
        #expect(index.query(Rect(minX: 10, minY: 1, maxX: 12, maxY: 2)) == [5, 3, 9, 1])
        index.remove(3)
        index.insert(3, bounds: Rect(minX: 0, minY: 0, maxX: 20, maxY: 5))
        #expect(index.query(Rect(minX: 10, minY: 1, maxX: 12, maxY: 2)) == [5, 9, 1, 3])
    }

    @Test func chunkBoxesFindALongStrokeOnlyWhereItsInkIs() {
        // An L-shaped stroke: its overall box covers the empty corner, its chunks do not.
        let points = (0...64).map { Point(Double($0) * 10, 0) } + (1...64).map { Point(640, Double($0) * 10) }
        let curve = SmoothCurve(points: points)
        let chunks = curve.chunkBounds(pointsPerChunk: 16)
        #expect(chunks.count == 8)
        var index = SpatialIndex<Int>()
        index.insert(1, boxes: chunks)
        index.insert(2, bounds: curve.bounds!)
        #expect(index.query(Rect(minX: 100, minY: 400, maxX: 110, maxY: 410)) == [2])
        #expect(index.query(Rect(minX: 100, minY: -2, maxX: 110, maxY: 2)) == [1, 2])
        for step in stride(from: 0.0, through: curve.endParameter, by: 0.05) {
            let point = curve.point(at: step)
            #expect(chunks.contains { $0.contains(point) })
        }
    }

    @Test func hostileBoxesNeverCrashAndNeverMatch() {
        var index = SpatialIndex<Int>(configuration: .init(cellSize: .nan))
        index.insert(1, bounds: Rect(minX: .nan, minY: 0, maxX: 1, maxY: 1))
        index.insert(2, bounds: Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity))
        index.insert(3, bounds: Rect(minX: -1e300, minY: -1e300, maxX: 1e300, maxY: 1e300))
        index.insert(4, bounds: Rect(minX: 10, minY: 10, maxX: 0, maxY: 0))
        index.insert(5, boxes: [])
        index.insert(6, bounds: Rect(minX: 1, minY: 1, maxX: 2, maxY: 2))
        index.checkInvariants()
        #expect(index.query(Rect(minX: 0, minY: 0, maxX: 5, maxY: 5)) == [2, 3, 6])
        #expect(index.query(Rect(minX: .nan, minY: 0, maxX: 5, maxY: 5)).isEmpty)
        #expect(index.query(Rect(minX: 1e20, minY: 1e20, maxX: 1e21, maxY: 1e21)) == [2, 3])
        for id in 1...6 {
            let done8 = index.remove(id)
            #expect(done8)
        }
        index.checkInvariants()
        #expect(index.count == 0)
    }
}
