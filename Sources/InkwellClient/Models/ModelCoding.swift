import Foundation
import InkwellModel

/// How register values and set elements are written: JSON with sorted keys, so equal values are equal
/// bytes on every device.
enum ModelValueCoding {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder { JSONDecoder() }
}

/// Why a type cannot be a model.
public enum ModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stored property that is not a ``Counter``, ``Register``, ``CounterMap`` or ``Members``.
    case unsupportedProperty(String)
    /// A value or a member the document would not take: a register over 64 KiB, a field name (a
    /// property and a member or key) over 256 bytes.
    case tooLarge(String)

    public var description: String {
        switch self {
        case .unsupportedProperty(let name):
            "the model's property \(name) is not a Counter, Register, CounterMap or Members"
        case .tooLarge(let field):
            "the value of \(field.prefix(64)) is too large for a model field"
        }
    }
}

/// Reads a model from a document: the model's synthesized `init(from:)` asks for each property by
/// name, and each field wrapper reads itself from the document at that name.
struct ModelDecoder: Decoder {
    let document: ModelDocument
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(document: document))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ModelError.unsupportedProperty(codingPath.map(\.stringValue).joined(separator: "."))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw ModelError.unsupportedProperty(codingPath.map(\.stringValue).joined(separator: "."))
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let document: ModelDocument
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        /// Every field exists: one never written reads as its empty value.
        func contains(_: Key) -> Bool { true }

        func decodeNil(forKey _: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try T(from: FieldDecoder(document: document, path: key.stringValue))
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy _: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw ModelError.unsupportedProperty(key.stringValue)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw ModelError.unsupportedProperty(key.stringValue)
        }

        func superDecoder() throws -> any Decoder { throw ModelError.unsupportedProperty("super") }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            throw ModelError.unsupportedProperty(key.stringValue)
        }
    }
}

/// The decoder one field wrapper reads itself from; anything else asking for a value is not a field.
struct FieldDecoder: Decoder {
    let document: ModelDocument
    let path: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func read<Field: ModelField>(_: Field.Type, from decoder: any Decoder) throws -> Field {
        guard let decoder = decoder as? FieldDecoder else {
            throw ModelError.unsupportedProperty(decoder.codingPath.map(\.stringValue).joined(separator: "."))
        }
        return Field(reading: decoder.document, at: decoder.path)
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw ModelError.unsupportedProperty(path)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ModelError.unsupportedProperty(path) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw ModelError.unsupportedProperty(path)
    }
}

/// Writes down what each field of a model holds, by property name, to compare two versions.
final class ModelEncoder: Encoder {
    private(set) var fields: [String: FieldSnapshot] = [:]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func fields(of model: some Encodable) throws -> [String: FieldSnapshot] {
        let encoder = ModelEncoder()
        try model.encode(to: encoder)
        return encoder.fields
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Refusal<AnyKey>(path: "") }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleRefusal(path: "") }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ModelEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { throw ModelError.unsupportedProperty(key.stringValue) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let field = FieldEncoder(path: key.stringValue)
            try value.encode(to: field)
            guard let snapshot = field.snapshot else { throw ModelError.unsupportedProperty(key.stringValue) }
            encoder.fields[key.stringValue] = snapshot
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy _: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Refusal<NestedKey>(path: key.stringValue))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Refusal<Key>(path: key.stringValue)
        }

        mutating func superEncoder() -> any Encoder { FieldEncoder(path: "super") }

        mutating func superEncoder(forKey key: Key) -> any Encoder { FieldEncoder(path: key.stringValue) }
    }
}

/// The encoder one field wrapper records itself to.
final class FieldEncoder: Encoder {
    let path: String
    private(set) var snapshot: FieldSnapshot?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(path: String) {
        self.path = path
    }

    static func record(_ snapshot: FieldSnapshot, to encoder: any Encoder) throws {
        guard let encoder = encoder as? FieldEncoder else {
            throw ModelError.unsupportedProperty(encoder.codingPath.map(\.stringValue).joined(separator: "."))
        }
        encoder.snapshot = snapshot
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Refusal<Key>(path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Refusal<AnyKey>(path: path) }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleRefusal(path: path) }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue _: Int) { nil }
}

/// Containers that refuse everything: a property that is not a field wrapper ends up in one, and the
/// write fails with ``ModelError/unsupportedProperty(_:)`` naming it.
struct Refusal<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
    let path: String
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    private var refusal: ModelError { .unsupportedProperty(path) }

    mutating func encodeNil(forKey _: Key) throws { throw refusal }
    mutating func encode<T: Encodable>(_: T, forKey _: Key) throws { throw refusal }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy _: NestedKey.Type,
        forKey _: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(Refusal<NestedKey>(path: path))
    }
    mutating func nestedUnkeyedContainer(forKey _: Key) -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder(forKey _: Key) -> any Encoder { FieldEncoder(path: path) }
    mutating func superEncoder() -> any Encoder { FieldEncoder(path: path) }
    mutating func encodeNil() throws { throw refusal }
    mutating func encode<T: Encodable>(_: T) throws { throw refusal }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(Refusal<NestedKey>(path: path))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
}

/// The single-value container a plain property (a `String`, an `Int`) writes to: refused.
struct SingleRefusal: SingleValueEncodingContainer {
    let path: String
    var codingPath: [any CodingKey] { [] }

    private var refusal: ModelError { .unsupportedProperty(path) }

    mutating func encodeNil() throws { throw refusal }
    mutating func encode(_: Bool) throws { throw refusal }
    mutating func encode(_: String) throws { throw refusal }
    mutating func encode(_: Double) throws { throw refusal }
    mutating func encode(_: Float) throws { throw refusal }
    mutating func encode(_: Int) throws { throw refusal }
    mutating func encode(_: Int8) throws { throw refusal }
    mutating func encode(_: Int16) throws { throw refusal }
    mutating func encode(_: Int32) throws { throw refusal }
    mutating func encode(_: Int64) throws { throw refusal }
    mutating func encode(_: UInt) throws { throw refusal }
    mutating func encode(_: UInt8) throws { throw refusal }
    mutating func encode(_: UInt16) throws { throw refusal }
    mutating func encode(_: UInt32) throws { throw refusal }
    mutating func encode(_: UInt64) throws { throw refusal }
    mutating func encode<T: Encodable>(_: T) throws { throw refusal }
}
