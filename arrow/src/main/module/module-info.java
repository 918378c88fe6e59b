/**
 * Arrow interop for stringview's view columns: Arrow Java vectors, the Arrow C Data Interface (pure FFM, no JNI)
 * and Arrow IPC files and streams. Only {@code dev.stringview.arrow} is exported.
 */
module dev.stringview.arrow {
    requires transitive dev.stringview;
    requires transitive org.apache.arrow.vector;
    requires transitive org.apache.arrow.memory.core;
    // aircompressor-v3 declares no module name: this is the automatic one its jar file name gives.
    requires aircompressor.v3;

    exports dev.stringview.arrow;
}
