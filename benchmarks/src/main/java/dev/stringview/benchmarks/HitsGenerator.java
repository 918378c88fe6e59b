package dev.stringview.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A deterministic web-analytics table shaped like ClickBench's {@code hits} string columns: {@code URL},
 * {@code Referer}, {@code Title}, {@code SearchPhrase} and {@code BrowserCountry} (a 2-letter code). Row
 * {@code r} depends only on the seed and {@code r}, so any slice can be regenerated.
 *
 * <ul>
 *   <li>URL: http(s), one of 400 domains with Zipf-like popularity, 1-4 path segments (10% are home pages), a query string on
 *   40% of rows and a long tracking token on some, so lengths run from about 20 to well over 200 bytes. About 1.5% of URLs
 *   contain "google" (1% Google search pages, 0.5% {@code utm_source=google}); about 1% are the home page
 *   {@link #EQUAL_URL}.</li>
 *   <li>Referer: 35% empty, 12% search-engine result pages, otherwise URL-like.</li>
 *   <li>Title: 10% empty, otherwise 2-10 words (a third of titles in Cyrillic, so multi-byte UTF-8) and the site.</li>
 *   <li>SearchPhrase: 85% empty, otherwise 1-5 words.</li>
 *   <li>BrowserCountry: 2-letter codes, skewed (RU about 45%).</li>
 * </ul>
 */
final class HitsGenerator {
    static final List<String> COLUMNS = List.of("URL", "Referer", "Title", "SearchPhrase", "BrowserCountry");
    static final long SEED = 0xC11C_BE5CL;
    /** Bump when the generated data changes, so cached files are regenerated. */
    static final int VERSION = 1;

    private static final String[] SYLLABLES = {"ma", "ri", "ko", "ta", "ne", "lo", "vi", "sa", "pe", "du", "ra",
        "mi", "ze", "bo", "ka", "li", "no", "tu", "ya", "fe", "sho", "pro", "net", "tel", "av", "ex", "in", "po"};
    private static final String[] TLDS = {".ru", ".ru", ".ru", ".com", ".net", ".org", ".de", ".ua", ".by", ".kz"};
    private static final String[] WORDS = {"news", "sport", "auto", "cars", "weather", "moscow", "video", "music",
        "games", "online", "free", "download", "photo", "cinema", "film", "series", "shop", "buy", "price",
        "catalog", "product", "item", "sale", "discount", "review", "forum", "topic", "thread", "blog", "post",
        "article", "search", "maps", "travel", "hotel", "tickets", "flights", "bank", "credit", "loan", "jobs",
        "vacancy", "realty", "flat", "rent", "house", "recipe", "health", "doctor", "school", "exam", "english",
        "translate", "dictionary", "mail", "login", "account", "profile", "settings", "help", "support", "phone",
        "mobile", "android", "iphone", "laptop", "tv", "kids", "toys", "fashion", "dress", "shoes", "beauty",
        "horoscope", "dating", "chat", "radio", "books", "library", "history", "science", "space", "football",
        "hockey", "tennis", "chess", "fishing", "garden", "repair", "tools", "furniture", "kitchen", "pets"};
    private static final String[] CYRILLIC = {"новости", "погода", "купить", "цена", "москва", "фильм", "смотреть",
        "онлайн", "бесплатно", "скачать", "игры", "музыка", "авто", "продажа", "квартира", "работа", "вакансии",
        "рецепт", "здоровье", "школа", "карта", "отзывы", "каталог", "магазин", "дешево", "спорт", "футбол",
        "сериал", "книги", "история", "телефон", "ремонт", "одежда", "обувь", "подарки", "знакомства"};
    private static final String[] PARAMS = {"id", "page", "ref", "sort", "from", "utm_campaign", "utm_medium",
        "session", "p", "cat", "lang", "view", "clid", "yclid"};
    private static final String[] COUNTRIES = {"RU", "UA", "BY", "KZ", "US", "DE", "GB", "FR", "TR", "PL", "IT",
        "ES", "NL", "CN", "JP", "IN", "BR", "CA", "UZ", "AM", "GE", "AZ", "LV", "LT", "EE", "FI", "SE", "IL"};
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    static final String[] DOMAINS = domains(400);
    /** Row values equal to this (≈1% of URLs): the equality query's constant. */
    static final String EQUAL_URL = "http://" + DOMAINS[0] + "/";
    /** The prefix query's constant: pages of the second most popular site over https (≈1.5% of URLs). */
    static final String PREFIX_URL = "https://" + DOMAINS[1] + "/";

    /** Prints the equality and the prefix query's constants, tab-separated (for {@code benchmarks/duckdb-hits.py}). */
    public static void main(String[] args) {
        System.out.println(EQUAL_URL + "\t" + PREFIX_URL);
    }

    private final long seed;

    HitsGenerator(long seed) {
        this.seed = seed;
    }

    HitsGenerator() {
        this(SEED);
    }

    /** Distinct URLs of the layout whose URL column is really dictionary-encoded (see {@link #withUrlsFrom}). */
    static final int DICTIONARY_URLS = 8192;

    /**
     * Rows whose URL is drawn uniformly from the URLs of rows {@code 0 .. distinct - 1} (the other columns as in
     * {@link #row}): the same URL shapes and about the same share of the queries' constants, with a number of
     * distinct values that a dictionary page holds.
     */
    ParquetFiles.Rows withUrlsFrom(int distinct) {
        String[] urls = new String[distinct];
        for (int i = 0; i < distinct; i++) {
            urls[i] = row(i)[0];
        }
        return row -> {
            String[] values = row(row);
            values[0] = urls[new SplittableRandom(~seed ^ (row * 0xC2B2_AE3D_27D4_EB4FL)).nextInt(distinct)];
            return values;
        };
    }

    /** The values of row {@code row}, in {@link #COLUMNS} order. */
    String[] row(long row) {
        SplittableRandom r = new SplittableRandom(seed ^ (row * 0x9E37_79B9_7F4A_7C15L));
        StringBuilder sb = new StringBuilder(256);
        String url = url(r, sb);
        String referer = referer(r, sb);
        String title = title(r, sb);
        String phrase = r.nextInt(100) < 85 ? "" : phrase(r, sb, false);
        return new String[] {url, referer, title, phrase, country(r)};
    }

    private static String url(SplittableRandom r, StringBuilder sb) {
        int p = r.nextInt(1000);
        sb.setLength(0);
        if (p < 10) {
            sb.append(r.nextBoolean() ? "https://www.google.ru/search?q=" : "https://www.google.com/search?q=");
            appendEncoded(sb, phrase(r, new StringBuilder(), true));
            sb.append("&ie=UTF-8&oe=UTF-8");
            if (r.nextBoolean()) {
                sb.append("&client=firefox-b-d");
            }
            return sb.toString();
        }
        if (p >= 15 && p < 25) {
            return EQUAL_URL;
        }
        appendPage(r, sb, DOMAINS[zipf(r, DOMAINS.length)]);
        if (p < 15) {
            sb.append(sb.indexOf("?") < 0 ? '?' : '&').append("utm_source=google&utm_medium=cpc");
        }
        return sb.toString();
    }

    /** A page of {@code domain}: scheme, path and maybe a query string. */
    private static void appendPage(SplittableRandom r, StringBuilder sb, String domain) {
        sb.append(r.nextInt(100) < 45 ? "https://" : "http://").append(domain).append('/');
        int segments = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(4);
        for (int s = 0; s < segments; s++) {
            switch (r.nextInt(4)) {
                case 0 -> sb.append(r.nextInt(1_000_000));
                case 1 -> sb.append(word(r)).append('-').append(word(r));
                default -> sb.append(word(r));
            }
            sb.append(s == segments - 1 && r.nextInt(3) == 0 ? ".html" : "/");
        }
        if (r.nextInt(100) < 40) {
            int params = 1 + r.nextInt(5);
            for (int i = 0; i < params; i++) {
                sb.append(i == 0 ? '?' : '&').append(PARAMS[r.nextInt(PARAMS.length)]).append('=');
                if (r.nextBoolean()) {
                    sb.append(r.nextInt(100_000));
                } else {
                    sb.append(word(r));
                }
            }
            if (r.nextInt(100) < 12) {
                sb.append("&track=");
                int n = 16 + r.nextInt(r.nextInt(10) == 0 ? 240 : 32);
                for (int i = 0; i < n; i++) {
                    sb.append(HEX[r.nextInt(16)]);
                }
            }
        }
    }

    private static String referer(SplittableRandom r, StringBuilder sb) {
        int p = r.nextInt(100);
        if (p < 35) {
            return "";
        }
        sb.setLength(0);
        if (p < 43) {
            sb.append("https://www.google.ru/search?q=");
            appendEncoded(sb, phrase(r, new StringBuilder(), true));
            return sb.toString();
        }
        if (p < 47) {
            sb.append("https://yandex.ru/search/?text=");
            appendEncoded(sb, phrase(r, new StringBuilder(), true));
            return sb.append("&lr=213").toString();
        }
        appendPage(r, sb, DOMAINS[zipf(r, DOMAINS.length)]);
        return sb.toString();
    }

    private static String title(SplittableRandom r, StringBuilder sb) {
        if (r.nextInt(100) < 10) {
            return "";
        }
        sb.setLength(0);
        boolean cyrillic = r.nextInt(3) == 0;
        int words = 2 + r.nextInt(9);
        for (int i = 0; i < words; i++) {
            String w = cyrillic ? CYRILLIC[r.nextInt(CYRILLIC.length)] : word(r);
            if (i == 0) {
                sb.append(Character.toUpperCase(w.charAt(0))).append(w, 1, w.length());
            } else {
                sb.append(' ').append(w);
            }
        }
        String site = DOMAINS[zipf(r, DOMAINS.length)];
        site = site.startsWith("www.") ? site.substring(4) : site;
        return sb.append(" - ").append(site).toString();
    }

    private static String phrase(SplittableRandom r, StringBuilder sb, boolean forUrl) {
        sb.setLength(0);
        boolean cyrillic = r.nextInt(forUrl ? 4 : 2) == 0;
        int words = 1 + r.nextInt(5);
        for (int i = 0; i < words; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(cyrillic ? CYRILLIC[r.nextInt(CYRILLIC.length)] : word(r));
        }
        return sb.toString();
    }

    /** Percent-encodes UTF-8 bytes outside [A-Za-z0-9], and spaces as '+'. */
    private static void appendEncoded(StringBuilder sb, String text) {
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                sb.append((char) c);
            } else if (c == ' ') {
                sb.append('+');
            } else {
                sb.append('%').append(Character.toUpperCase(HEX[c >>> 4])).append(Character.toUpperCase(HEX[c & 15]));
            }
        }
    }

    private static String country(SplittableRandom r) {
        int p = r.nextInt(100);
        if (p < 45) {
            return "RU";
        }
        if (p < 55) {
            return "UA";
        }
        if (p < 63) {
            return "US";
        }
        return COUNTRIES[r.nextInt(COUNTRIES.length)];
    }

    /**
     * Text-like ASCII of {@code minLength..maxLength} bytes (words, digits and separators, so it compresses as real
     * strings do), for Suite 2's long strings.
     */
    static String text(SplittableRandom r, int minLength, int maxLength) {
        int length = minLength + r.nextInt(maxLength - minLength + 1);
        StringBuilder sb = new StringBuilder(length + 16);
        while (sb.length() < length) {
            switch (r.nextInt(6)) {
                case 0 -> sb.append(r.nextInt(10_000));
                case 1 -> sb.append(DOMAINS[zipf(r, DOMAINS.length)]);
                default -> sb.append(word(r));
            }
            sb.append(SEPARATORS[r.nextInt(SEPARATORS.length)]);
        }
        sb.setLength(length);
        return sb.toString();
    }

    private static final char[] SEPARATORS = {'/', '-', ' ', '_', '.', '='};

    private static String word(SplittableRandom r) {
        return WORDS[zipf(r, WORDS.length)];
    }

    /** An index in [0, n) with a Zipf-like skew: small indices are much more likely. */
    private static int zipf(SplittableRandom r, int n) {
        double u = r.nextDouble();
        return (int) (n * u * u * u);
    }

    private static String[] domains(int n) {
        SplittableRandom r = new SplittableRandom(SEED * 31);
        List<String> out = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (out.size() < n) {
            StringBuilder sb = new StringBuilder();
            if (r.nextBoolean()) {
                sb.append("www.");
            }
            int syllables = 3 + r.nextInt(3);
            for (int i = 0; i < syllables; i++) {
                sb.append(SYLLABLES[r.nextInt(SYLLABLES.length)]);
            }
            sb.append(TLDS[r.nextInt(TLDS.length)]);
            String domain = sb.toString();
            if (!domain.contains("google") && seen.add(domain.replace("www.", ""))) {
                out.add(domain);
            }
        }
        return out.toArray(String[]::new);
    }
}
