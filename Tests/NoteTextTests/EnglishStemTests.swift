import NoteText
import Testing

@Suite struct EnglishStemTests {
    @Test(arguments: [
        ("synced", "sync"), ("syncing", "sync"), ("syncs", "sync"), ("sync", "sync"), ("notes", "note"),
        ("stories", "story"),
        ("boxes", "box"), ("classes", "class"), ("class", "class"), ("stopped", "stop"), ("running", "run"),
        ("quickly", "quick"),
        ("falls", "fall"), ("created", "creat"), ("bus", "bus"), ("analysis", "analysis"), ("sing", "sing"),
        ("bed", "bed"),
        ("Straße", "Straße"), ("東京", "東京"), ("is", "is"), ("Synced", "sync"),
    ])
    func stems(word: String, stem: String) {
        #expect(EnglishStem.stem(word) == stem)
    }
}
