import Foundation
import NoteStore
import Testing

@Suite struct IdentifierTests {
    @Test func theStoreFormOfAnIdIsItsLowercaseString() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(id.storeString == id.uuidString.lowercased())
        }
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        #expect(edges.map(\.storeString) == ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"])
    }
}
