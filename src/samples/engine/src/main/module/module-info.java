/** A small engine that keeps a string column off-heap as views and filters, sorts and groups it. */
module dev.stringview.samples.engine {
    requires dev.stringview;

    exports dev.stringview.samples.engine;
}
