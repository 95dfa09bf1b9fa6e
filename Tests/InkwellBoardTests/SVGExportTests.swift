import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct SVGExportTests {
    /// Collects the elements of an SVG document, failing on malformed XML.
    final class Elements: NSObject, XMLParserDelegate {
        var found: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            found.append((name, attributes))
        }

        static func of(_ svg: String) throws -> [(name: String, attributes: [String: String])] {
            let parser = XMLParser(data: Data(svg.utf8))
            let elements = Elements()
            parser.delegate = elements
            try #require(parser.parse(), "the SVG is well-formed XML")
            return elements.found
        }
    }

    @Test func exportsExactlyWhatIsVisibleInStackingOrder() throws {
        var alice = Author(1)
        let red = Colour(red: 255, green: 0, blue: 0, alpha: 128)
        let bottom = alice.change(add(line(5), style: StrokeStyle(colour: red, width: 4)))
        let top = alice.change(add(line(3, y: 20)))
        let hidden = alice.change(add(line(3, y: 40)))
        let dot = alice.change(add([Point(7, 7)]))
        let changes = [
            bottom, top, hidden, dot,
            alice.change(.erase(stroke(of: bottom), [interval(1, 2.5)])),
            alice.change(.set(stroke(of: hidden), .deleted(true))),
            alice.change(.set(stroke(of: top), .transform(.translation(5, 0)))),
            alice.change(.set(stroke(of: bottom), .zOrder(1))),
        ]
        let board = BoardState.after(changes)
        let elements = try Elements.of(SVGExporter().svg(for: board))
        let drawn = elements.filter { $0.attributes["data-stroke"] != nil }
        #expect(
            drawn.map { $0.attributes["data-stroke"] }
                == [stroke(of: top), stroke(of: dot), stroke(of: bottom)].map(\.description)
        )

        let erased = try #require(drawn.last)
        #expect(erased.name == "path")
        #expect(erased.attributes["stroke"] == "#ff0000")
        #expect(erased.attributes["stroke-opacity"] == "0.5")
        #expect(erased.attributes["stroke-width"] == "4")
        let d = try #require(erased.attributes["d"])
        #expect(d.filter { $0 == "M" }.count == 2, "one subpath per visible piece")
        #expect(d.hasPrefix("M0 0C"))
        #expect(d.contains("M25 0C"), "the second piece starts where the erase ends")

        #expect(drawn[0].attributes["transform"] == "matrix(1 0 0 1 5 0)")
        #expect(drawn[1].name == "circle")
        #expect(drawn[1].attributes["cx"] == "7" && drawn[1].attributes["r"] == "1")
    }

    @Test func anEmptyBoardIsAnEmptyButValidDocument() throws {
        let elements = try Elements.of(SVGExporter().svg(for: BoardState(board: "main")))
        #expect(elements.map(\.name) == ["svg", "g"])
    }

    @Test func theBackgroundIsOptional() throws {
        var configuration = SVGExporter.Configuration()
        configuration.background = Colour(red: 255, green: 255, blue: 255)
        var alice = Author(1)
        let svg = SVGExporter(configuration: configuration).svg(for: .after([alice.change(add(line(2)))]))
        let elements = try Elements.of(svg)
        #expect(elements.map(\.name) == ["svg", "rect", "g", "path"])
        #expect(elements[0].attributes["viewBox"] == "-17 -17 44 34", "bounds grown by half the width and the margin")
    }
}
