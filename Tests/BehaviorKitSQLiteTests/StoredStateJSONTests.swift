import Foundation
import Testing

@testable import BehaviorKitSQLite

/// The instance row's `states` column, coded by hand for the usual names, keys in one order
/// (`JSONEncoder`'s order varies from call to call), read back as `JSONDecoder` reads it;
/// anything else goes through them.
struct StoredStateJSONTests {
    static let lists: [[StoredState]] = [
        [],
        [StoredState(state: "paid", at: 1_764_504_000_123)],
        [StoredState(state: "a", at: 0), StoredState(state: "b.c d-e_f", at: -42), StoredState(state: "z", at: .max)],
        [StoredState(state: "", at: .min)],
        // Names JSON escapes, or writes beyond ASCII: left to JSONEncoder.
        [StoredState(state: "on/off", at: 1), StoredState(state: #"say "hi""#, at: 2)],
        [StoredState(state: "tab\there", at: 3), StoredState(state: "back\\slash", at: 4)],
        [StoredState(state: "café", at: 5), StoredState(state: "\u{7F}", at: 6)],
    ]

    @Test(arguments: lists)
    func writesJSONThatJSONDecoderReadsAndReadsItBack(_ states: [StoredState]) throws {
        let json = try StoredState.json(states)
        #expect(try JSONDecoder().decode([StoredState].self, from: json) == states)
        #expect(try StoredState.states(fromJSON: json) == states)
    }

    @Test func writesTheKeysOfUsualNamesInOneOrder() throws {
        let states = [StoredState(state: "paid", at: 1_764_504_000_123), StoredState(state: "x-1", at: -7)]
        let expected = #"[{"state":"paid","at":1764504000123},{"state":"x-1","at":-7}]"#
        for _ in 0..<8 { #expect(String(decoding: try StoredState.json(states), as: UTF8.self) == expected) }
        #expect(String(decoding: try StoredState.json([]), as: UTF8.self) == "[]")
    }

    @Test(arguments: [
        #"[ {"state":"paid","at":5} ]"#, #"[{"at":5,"state":"paid"}]"#, #"[{"state":"p\u0061id","at":5}]"#,
        #"[{"state":"paid","at":5.0}]"#,
    ])
    func readsOtherShapesAsJSONDecoderDoes(_ json: String) throws {
        let expected = try JSONDecoder().decode([StoredState].self, from: Data(json.utf8))
        #expect(try StoredState.states(fromJSON: Data(json.utf8)) == expected)
        #expect(expected == [StoredState(state: "paid", at: 5)])
    }

    @Test(arguments: [
        #"[{"state":"paid","at":99999999999999999999}]"#, #"[{"state":"paid","at":}]"#, #"[{"state":"paid""#, "",
        #"[{"state":"paid","at":5}]x"#,
    ])
    func refusesWhatJSONDecoderRefuses(_ json: String) {
        #expect(throws: (any Error).self) { try StoredState.states(fromJSON: Data(json.utf8)) }
    }
}
