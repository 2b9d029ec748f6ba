import Foundation
import FuzzDriver
import NoteSync

// The JSON files of the container: container.json, key.json, registrations, baseline manifests.
fuzz { data in
    let decoder = JSONDecoder()
    _ = try? decoder.decode(ContainerDescriptor.self, from: data)
    _ = try? decoder.decode(KeyFile.self, from: data)
    _ = try? decoder.decode(DeviceRegistration.self, from: data)
    _ = try? decoder.decode(BaselineManifest.self, from: data)
}
