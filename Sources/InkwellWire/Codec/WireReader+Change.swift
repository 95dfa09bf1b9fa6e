import Foundation
import InkwellBoard
import InkwellSync

/// The fields of an encoded `Change`, before they are checked.
struct ChangeFields {
    var replica: ArraySlice<UInt8> = []
    var seq: UInt64 = 0
    var stamp: UInt64 = 0
    var board = ""
    var schemaVersion: UInt32 = 0
    var operations: [[UInt8]] = []
}

extension WireReader {
    /// The fields of an encoded `Change` in canonical form, or `nil` (see ``WireReader``).
    static func change(_ bytes: [UInt8]) -> ChangeFields? {
        var reader = WireReader(bytes)
        var fields = ChangeFields()
        if let range = reader.lengthDelimited(1) { fields.replica = bytes[range] }
        if reader.key(2, 0) {
            guard let seq = reader.varint() else { return nil }
            fields.seq = seq
        }
        if reader.key(3, 1) {
            guard let stamp = reader.fixed64() else { return nil }
            fields.stamp = stamp
        }
        if let range = reader.lengthDelimited(4) {
            guard let board = String(validating: bytes[range], as: UTF8.self) else { return nil }
            fields.board = board
        }
        if reader.key(5, 0) {
            guard let version = reader.varint(), version <= UInt64(UInt32.max) else { return nil }
            fields.schemaVersion = UInt32(version)
        }
        while let range = reader.lengthDelimited(6) { fields.operations.append(Array(bytes[range])) }
        return reader.isAtEnd ? fields : nil
    }

    /// An ink operation (`addStroke`, `appendPoints`) in canonical form, decoded; `nil` for any other
    /// operation and for anything the generated decoder should judge, including content it would refuse.
    static func inkOperation(_ bytes: [UInt8], in change: ChangeID) -> BoardOperation? {
        var reader = WireReader(bytes)
        if let body = reader.lengthDelimited(1), reader.isAtEnd {
            var add = WireReader(bytes, from: body.lowerBound, to: body.upperBound)
            var colour: UInt32 = 0
            var width = 0.0
            if add.key(1, 5) {
                guard let value = add.fixed32() else { return nil }
                colour = value
            }
            if add.key(2, 1) {
                guard let value = add.fixed64() else { return nil }
                width = Double(bitPattern: value)
            }
            var points = WirePoints()
            if let range = add.lengthDelimited(3) {
                guard let value = Self.points(bytes, range) else { return nil }
                points = value
            }
            guard add.isAtEnd, let (decoded, pressures) = try? OperationCodec.decode(points) else { return nil }
            return .addStroke(
                StrokeStyle(colour: Colour(rgba: colour), width: width),
                points: decoded,
                pressures: pressures
            )
        }
        reader = WireReader(bytes)
        if let body = reader.lengthDelimited(2), reader.isAtEnd {
            var append = WireReader(bytes, from: body.lowerBound, to: body.upperBound)
            var stroke = WireStrokeRef()
            if let range = append.lengthDelimited(1) {
                guard let value = Self.strokeRef(bytes, range) else { return nil }
                stroke = value
            }
            var points = WirePoints()
            if let range = append.lengthDelimited(2) {
                guard let value = Self.points(bytes, range) else { return nil }
                points = value
            }
            guard append.isAtEnd, let id = try? OperationCodec.decode(stroke, in: change),
                let (decoded, pressures) = try? OperationCodec.decode(points)
            else { return nil }
            return .appendPoints(id, points: decoded, pressures: pressures)
        }
        return nil
    }

    private static func strokeRef(_ bytes: [UInt8], _ range: Range<Int>) -> WireStrokeRef? {
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        var stroke = WireStrokeRef()
        if let replica = reader.lengthDelimited(1) { stroke.replica = Data(bytes[replica]) }
        if reader.key(2, 0) {
            guard let seq = reader.varint() else { return nil }
            stroke.seq = seq
        }
        if reader.key(3, 0) {
            guard let index = reader.varint(), index <= UInt64(UInt32.max) else { return nil }
            stroke.index = UInt32(index)
        }
        return reader.isAtEnd ? stroke : nil
    }

    private static func points(_ bytes: [UInt8], _ range: Range<Int>) -> WirePoints? {
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        var points = WirePoints()
        if reader.key(1, 0) {
            guard let scale = reader.varint(), scale <= UInt64(UInt32.max) else { return nil }
            points.scale = UInt32(scale)
        }
        if let packed = reader.lengthDelimited(2) {
            var values = WireReader(bytes, from: packed.lowerBound, to: packed.upperBound)
            var residuals: [Int64] = []
            residuals.reserveCapacity(packed.count)
            while !values.isAtEnd {
                guard let value = values.varint() else { return nil }
                residuals.append(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
            }
            points.residuals = residuals
        }
        if let packed = reader.lengthDelimited(3) {
            guard packed.count.isMultiple(of: 8) else { return nil }
            var values = WireReader(bytes, from: packed.lowerBound, to: packed.upperBound)
            var raw: [Double] = []
            raw.reserveCapacity(packed.count / 8)
            while let value = values.fixed64() { raw.append(Double(bitPattern: value)) }
            points.raw = raw
        }
        if let pressures = reader.lengthDelimited(4) { points.pressures = Data(bytes[pressures]) }
        if let packed = reader.lengthDelimited(5) {
            guard packed.count.isMultiple(of: 4) else { return nil }
            var values = WireReader(bytes, from: packed.lowerBound, to: packed.upperBound)
            var raw: [Float] = []
            raw.reserveCapacity(packed.count / 4)
            while let value = values.fixed32() { raw.append(Float(bitPattern: value)) }
            points.rawPressures = raw
        }
        return reader.isAtEnd ? points : nil
    }
}
