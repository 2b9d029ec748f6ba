import FuzzDriver
import NoteStore

// The image inspectors of attachments: PNG, JPEG, GIF and WebP headers and chunks.
fuzz { data in _ = try? ImageInspector.inspect(data) }
