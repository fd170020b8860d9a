import ABRLab
import ABRLabDatasets
import ABRLabFormats
import Foundation
import Testing
import TestSupport

/// The registry in `Datasets/registry.json`: every entry complete and exactly the copies in
/// `../shared/datasets`, and the training set disjoint from the test sets by hash.
@Suite(.tags(.compare), .selectedByTags) struct DatasetRegistryTests {
    static let registry: DatasetRegistry = {
        do {
            return try DatasetRegistry(contentsOf: PackageRoot.file(DatasetRegistry.relativePath).path)
        } catch {
            fatalError("the shipped registry does not load: \(error)")
        }
    }()

    static let ids = ["pensieve/test", "pensieve/video", "pensieve/model", "pensieve/checkpoint", "pensieve/train", "sabre/3g", "sabre/4g", "sabre/fcc-hd", "sabre/manifests"]

    @Test func theRegistryHasEveryReferenceDatasetAndTheTrainingSet() throws {
        #expect(Self.registry.datasets.map(\.id) == Self.ids)
        #expect(try Self.registry.dataset("train/fcc-hd").id == "sabre/fcc-hd")
        #expect(try Self.registry.dataset("train/pensieve").id == "pensieve/train")
    }

    @Test(arguments: ids) func everyEntrySaysWhereItComesFromItsLicenceAndHowToCiteIt(id: String) throws {
        let dataset = try Self.registry.dataset(id)
        #expect(!dataset.description.isEmpty && !dataset.licence.isEmpty && !dataset.upstream.note.isEmpty)
        #expect(!dataset.citations.isEmpty && dataset.citations.allSatisfy { $0.doi.hasPrefix("10.") })
        #expect(!dataset.files.isEmpty)
        if case .github(let repository, let commit, _, _, _) = dataset.upstream {
            #expect(repository.contains("/"))
            #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit))
        }
    }

    /// A wrong size or hash in the registry fails here, naming the file.
    @Test(.tags(.datasets), .needsDatasets, arguments: ids) func everyFileMatchesTheSharedCopy(id: String) throws {
        let dataset = try Self.registry.dataset(id)
        let folder = Datasets.url(dataset.base)
        for file in dataset.files {
            let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(file.path).path), "\(id): \(file.path) missing")
            #expect(data.count == file.bytes, "\(id): \(file.path) size")
            #expect(SHA256.hex(data) == file.sha256, "\(id): \(file.path) SHA-256")
        }
    }

    /// A folder dataset lists every file of its folder: none left out of the registry.
    @Test(.tags(.datasets), .needsDatasets, arguments: ["pensieve/test", "pensieve/video", "pensieve/train", "sabre/3g", "sabre/4g", "sabre/fcc-hd"])
    func aFolderDatasetListsEveryFileOfItsFolder(id: String) throws {
        let dataset = try Self.registry.dataset(id)
        let names = try FileManager.default.contentsOfDirectory(atPath: Datasets.url(dataset.base).path).filter { !$0.hasPrefix(".") }
        #expect(names.sorted() == dataset.files.map(\.path).sorted())
    }

    /// Every training set against every test set, by the registry's hashes.
    @Test(arguments: [("train/fcc-hd", 1000), ("train/pensieve", 127)])
    func aTrainingSetSharesNoFileWithTheTestSets(training id: String, count: Int) throws {
        let training = Set(try Self.registry.dataset(id).files.map(\.sha256))
        #expect(training.count == count)
        for test in ["pensieve/test", "sabre/3g", "sabre/4g"] {
            let shared = training.intersection(try Self.registry.dataset(test).files.map(\.sha256))
            #expect(shared.isEmpty, "\(test) shares \(shared.count) files with \(id)")
        }
    }

    @Test func anEntryWhoseHashIsNotItsFilesListingIsRefused() throws {
        let dataset = try Self.registry.dataset("pensieve/video")
        let text = String(decoding: try Data(contentsOf: PackageRoot.file(DatasetRegistry.relativePath)), as: UTF8.self)
        let tampered = text.replacingOccurrences(of: dataset.files[0].sha256, with: String(repeating: "0", count: 64))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(tampered.utf8).write(to: file)
        #expect(throws: InputError.self) { try DatasetRegistry(contentsOf: file.path) }
        do {
            _ = try DatasetRegistry(contentsOf: file.path)
        } catch {
            #expect(error.message.contains("pensieve/video: sha256 \(dataset.sha256) is not its files' listing hash"))
        }
    }

    @Test func anUnknownIDListsTheKnownOnes() {
        #expect(throws: InputError.self) { try Self.registry.dataset("pensieve/tset") }
        let error = Self.registry.unknown("pensieve/tset")
        #expect(error.description == "pensieve/tset: not a known dataset id; did you mean pensieve/test? known: " + (Self.ids.prefix(5) + ["train/pensieve"] + Self.ids[5..<8] + ["train/fcc-hd", "sabre/manifests"]).joined(separator: ", "))
    }

    @Test func theListingHashIsTheSHA256OfTheSortedSumsLines() {
        let files = [Dataset.File(path: "b", bytes: 2, sha256: String(repeating: "b", count: 64)), Dataset.File(path: "a", bytes: 1, sha256: String(repeating: "a", count: 64))]
        let text = "\(String(repeating: "a", count: 64))  1  a\n\(String(repeating: "b", count: 64))  2  b\n"
        #expect(Dataset.listingHash(files) == SHA256.hex(Array(text.utf8)))
    }
}
