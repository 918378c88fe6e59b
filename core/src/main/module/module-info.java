/**
 * Off-heap string-view columns (Arrow Utf8View / BinaryView layout) on the Foreign Function & Memory API.
 */
module dev.stringview {
    exports dev.stringview;
}
