#!/bin/sh
# ArrowInteropBenchmark at 1M rows: this branch's jar (new.jar) and the same jar with core's Utf8 and
# ViewValidation classes of the commit before (old.jar: new.jar with dev/stringview/{Utf8,ViewValidation*}.class
# replaced by those compiled from 1aa887c), one after the other; then seed 003 at size 8 with a JFR profile.
# Build: ./mvnw -q -o -pl benchmarks -am package -DskipTests; cp benchmarks/target/benchmarks.jar new.jar
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
$J -jar new.jar 'ArrowInteropBenchmark.(ipcReadValidatedViews|ipcReadValidatedViewsBatchScoped|ipcReadArrowJavaUnvalidated|cDataExportImportValidated|cDataExportImportReadPass)$' \
    -p rows=1048576 -f 1 -wi 3 -w 1s -i 5 -r 1s -rf json -rff arrow-new-1.json
$J -jar old.jar 'ArrowInteropBenchmark.(ipcReadValidatedViewsBatchScoped|ipcReadArrowJavaUnvalidated|cDataExportImportValidated)$' \
    -p rows=1048576 -f 1 -wi 3 -w 1s -i 5 -r 1s -rf json -rff arrow-old-1.json
$J -jar new.jar 'SerializationBenchmark.(Separated|ArrowIpc).deserialize$' -p size=8 -p codec=none \
    -f 1 -wi 3 -w 1s -i 5 -r 1s -prof jfr -rf json -rff serial8.json
