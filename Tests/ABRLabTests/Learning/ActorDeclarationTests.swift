import ABRLab
import Testing
import TestSupport

/// What a Pensieve-family actor's tensors cannot say — branch 6's row, levels or steps — read
/// from its metadata or declared, and every declared shape checked against the tensors.
@Suite(.tags(.core), .selectedByTags) struct ActorDeclarationTests {
    /// The `__metadata__` of Genet's converted files (../shared/datasets/genet), word for word.
    static let genetMetadata = [
        "network": "genet-actor (Pensieve actor layout, jump actions)",
        "inputs": "6x6",
        "outputs": "3 (0 = one level down, 1 = stay, 2 = one level up; clamped to levels 0..5)",
        "branch6_reads": "row 5 (chunks left), last column",
        "licence": "GenetProject/Genet has no licence file at its root",
    ]
    /// The `__metadata__` of Pensieve's shipped actor.
    static let pensieveMetadata = ["network": "pensieve-actor", "inputs": "6x8", "source": "hongzimao/pensieve (MIT)", "outputs": "6"]

    @Test func genetsMetadataDeclaresItsLayout() throws {
        let declared = try ActorDeclaration(metadata: Self.genetMetadata, file: "g")
        #expect(declared.columns == 6)
        #expect(declared.chunksLeftRow == 5)
        #expect(declared.outputs == 3)
        #expect(declared.actions == .steps)
        #expect(declared == ActorDeclaration(source: "its __metadata__", columns: 6, chunksLeftRow: 5, outputs: 3, actions: .steps))
    }

    @Test func pensievesMetadataDeclaresLevelsAndLeavesBranch6ToTheDefault() throws {
        let declared = try ActorDeclaration(metadata: Self.pensieveMetadata, file: "p")
        #expect(declared == ActorDeclaration(source: "its __metadata__", columns: 8, chunksLeftRow: nil, outputs: 6, actions: .levels))
        #expect(try ActorDeclaration(metadata: [:], file: "p") == ActorDeclaration(source: "its __metadata__"))
    }

    @Test(arguments: [
        (["inputs": "6 by 8"], "m: __metadata__ inputs is '6 by 8'; abrlab reads it as ROWSxCOLUMNS, e.g. 6x8"),
        (["inputs": "5x8"], "m: __metadata__ inputs is '5x8'; Pensieve-family actors read 6 rows"),
        (["outputs": "three"], "m: __metadata__ outputs is 'three'; abrlab reads it as a count, optionally followed by ' (…)'"),
        (["outputs": "3 levels"], "m: __metadata__ outputs is '3 levels'; abrlab reads it as a count, optionally followed by ' (…)'"),
        (["branch6_reads": "column 5"], "m: __metadata__ branch6_reads is 'column 5'; abrlab reads it as 'row R' with R from 0 to 5"),
        (["branch6_reads": "row 6"], "m: __metadata__ branch6_reads is 'row 6'; abrlab reads it as 'row R' with R from 0 to 5"),
        (["branch6_reads": "row 45"], "m: __metadata__ branch6_reads is 'row 45'; abrlab reads it as 'row R' with R from 0 to 5"),
    ])
    func metadataAbrlabCannotReadIsOneError(metadata: [String: String], expected: String) throws {
        let file = try ActorFixture.file(ActorFixture.genet, name: "m", metadata: metadata)
        #expect(PensieveStrategyTests.failure { _ = try ActorNetwork(tensors: file) } == expected)
    }

    /// Branch 6 reads row 5 when the metadata says so, and the forward pass is the plain one's
    /// with that row; read as Pensieve's (row 4) it would differ.
    @Test func branch6ReadsTheRowTheMetadataNames() throws {
        let file = try ActorFixture.file(ActorFixture.genet, metadata: Self.genetMetadata)
        let network = try ActorNetwork(tensors: file)
        #expect(network.chunksLeftRow == 5)
        #expect(network.actions == .steps)
        #expect(network.columns == 6 && network.outputs == 3 && network.nextSizes == 6)
        let state = ActorFixture.state(columns: 6)
        let p = network.probabilities(state)
        let row5 = ActorFixture.reference(file, chunksLeftRow: 5, state: state)
        let row4 = ActorFixture.reference(file, chunksLeftRow: 4, state: state)
        for (a, b) in zip(p, row5) { #expect(abs(a - b) < 1e-6, "\(p) vs \(row5)") }
        #expect(zip(p, row4).contains { abs($0 - $1) > 1e-4 }, "reading row 4 must change the outputs, or the test shows nothing")
    }

    @Test func aDeclaredLayoutSaysWhatTheTensorsCannot() throws {
        let file = try ActorFixture.file(ActorFixture.genet)
        let undeclared = try ActorNetwork(tensors: file)
        #expect(undeclared.chunksLeftRow == 4 && undeclared.actions == .levels)
        let declared = try ActorNetwork(tensors: file, declared: .genet)
        #expect(declared.chunksLeftRow == 5 && declared.actions == .steps)
        let state = ActorFixture.state(columns: 6)
        #expect(declared.probabilities(state) == (try ActorNetwork(tensors: ActorFixture.file(ActorFixture.genet, metadata: Self.genetMetadata))).probabilities(state))
    }

    struct MismatchCase: Sendable, CustomStringConvertible {
        let name: String
        let shape: ActorFixture.Shape
        let metadata: [String: String]
        let declared: ActorDeclaration?
        let expected: String
        var description: String { name }
    }

    @Test(arguments: [
        MismatchCase(
            name: "Pensieve's shape as genet", shape: ActorFixture.Shape(columns: 8, nextSizes: 6, actions: 6, width: 8, taps: 4, hidden: 10),
            metadata: [:], declared: .genet,
            expected: "m: does not fit the genet layout: actor/Conv1D/W reads a history of 8 columns (shape [4, 1, 8, 8]) but the genet layout declares 6"
        ),
        MismatchCase(
            name: "Genet's shape as pensieve", shape: ActorFixture.genet, metadata: [:], declared: .pensieve,
            expected: "m: does not fit the pensieve layout: actor/Conv1D/W reads a history of 6 columns (shape [4, 1, 6, 8]) but the pensieve layout declares 8"
        ),
        MismatchCase(
            name: "six outputs as genet", shape: ActorFixture.Shape(columns: 6, nextSizes: 6, actions: 6, width: 8, taps: 4, hidden: 10),
            metadata: [:], declared: .genet,
            expected: "m: does not fit the genet layout: actor/FullyConnected_4/W has 6 outputs but the genet layout declares 3"
        ),
        MismatchCase(
            name: "metadata's history", shape: ActorFixture.genet, metadata: ["inputs": "6x8"], declared: nil,
            expected: "m: does not fit the actor layout: actor/Conv1D/W reads a history of 6 columns (shape [4, 1, 6, 8]) but its __metadata__ declares 8"
        ),
        MismatchCase(
            name: "metadata's outputs", shape: ActorFixture.genet, metadata: ["outputs": "6"], declared: nil,
            expected: "m: does not fit the actor layout: actor/FullyConnected_4/W has 3 outputs but its __metadata__ declares 6"
        ),
        MismatchCase(
            name: "metadata's row against a declaration", shape: ActorFixture.genet, metadata: genetMetadata,
            declared: ActorDeclaration(source: "the test layout", chunksLeftRow: 4),
            expected: "m: does not fit the test layout: actor/FullyConnected_2/W reads row 4 in the test layout but 5 by its __metadata__"
        ),
        MismatchCase(
            name: "metadata's actions against a declaration", shape: ActorFixture.genet, metadata: genetMetadata,
            declared: ActorDeclaration(source: "the test layout", actions: .levels),
            expected: "m: does not fit the test layout: actor/FullyConnected_4/W outputs are levels in the test layout but steps by its __metadata__"
        ),
        MismatchCase(
            name: "steps of four outputs", shape: ActorFixture.Shape(columns: 6, nextSizes: 6, actions: 4, width: 8, taps: 4, hidden: 10),
            metadata: ["outputs": "4 (0 = one level down, 1 = stay, 2 = one level up, 3 = two up)"], declared: nil,
            expected: "m: does not fit the actor layout: actor/FullyConnected_4/W has 4 outputs; relative steps are 3 (one level down, stay, one level up)"
        ),
    ])
    func aLayoutThatDoesNotFitItsTensorsIsOneLineNamingTheTensor(_ mismatch: MismatchCase) throws {
        let file = try ActorFixture.file(mismatch.shape, name: "m", metadata: mismatch.metadata)
        let message = PensieveStrategyTests.failure { _ = try ActorNetwork(tensors: file, declared: mismatch.declared) }
        #expect(message == mismatch.expected)
        #expect(message?.contains("\n") == false)
    }
}
