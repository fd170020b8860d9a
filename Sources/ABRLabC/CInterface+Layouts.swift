import ABRLab
import Foundation

/// What the layouts call returns: everything Python finds its way by, by name, never by position.
struct EnvLayouts: Encodable {
    /// The observations: the Pensieve state's shape (float32) and the context's fields.
    struct Observation: Encodable {
        let state: Shape
        let context: [Field]
        let contextLength: Int
    }

    struct Shape: Encodable {
        let shape: [Int]
    }

    /// A field of the context row: `shape` is empty for a scalar; `low` its lowest value; `lua`
    /// the ctx field of the Lua API it carries, when it carries one.
    struct Field: Encodable {
        let name: String
        let offset: Int
        let shape: [Int]
        let low: Double
        let lua: String?
    }

    /// The record's columns `info` holds at every step, and those it holds only when known.
    struct Info: Encodable {
        let always: [String]
        let whenKnown: [String]
    }

    /// ``EnvCall/Field``'s names, in the order of the call's words.
    let call: [String]
    /// ``EnvCall/AutoresetMode``'s names, in the order of their values.
    let autoresetModes: [String]
    let observation: Observation
    /// The segment record's columns, in order (``EnvFields/record``).
    let record: [String]
    let info: Info
    /// The traces, in index order, as `abrlab compare` names them.
    let traces: [String]
    /// The experts' strategy ids, in the order of the experts call's columns.
    let experts: [String]
    let qoeModel: String
    let ladderKbps: [Double]
    let segmentDurationS: Double

    init(_ env: Environment) {
        let configuration = env.configuration
        let levels = configuration.levelCount
        var offset = 0
        var fields: [Field] = []
        for field in EnvFields.context {
            fields.append(Field(name: field.name, offset: offset, shape: field.shape(levels: levels), low: field.low, lua: field.lua))
            offset += field.count(levels: levels)
        }
        call = EnvCall.Field.allCases.map(\.name)
        autoresetModes = EnvCall.AutoresetMode.allCases.map(\.name)
        observation = Observation(state: Shape(shape: [PensieveState.rows, EnvSlot.stateColumns]), context: fields, contextLength: offset)
        record = EnvFields.record.map(\.name)
        info = Info(always: EnvFields.infoAlways(live: configuration.emulator.profile.liveSettings != nil), whenKnown: EnvFields.infoWhenKnown)
        traces = configuration.traces.map(\.name)
        experts = configuration.experts.map(\.id)
        qoeModel = configuration.scoring.name
        ladderKbps = configuration.video.ladder.map(\.bitrateKbps)
        segmentDurationS = configuration.video.segmentDurationSeconds
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // Names and finite numbers only: encoding cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The environment's layouts as JSON (``EnvLayouts``). Returns the bytes the text needs with its
/// NUL, so a caller whose buffer was short can retry; "" (1) once closed.
@_cdecl("abrlab_env_layouts")
public func abrlabEnvLayouts(_ pointer: UnsafeMutableRawPointer, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let env = environment(pointer) else {
        write("", buffer, capacity)
        return 1
    }
    let text = EnvLayouts(env).json
    write(text, buffer, capacity)
    return text.utf8.count + 1
}
