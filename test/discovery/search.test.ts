/**
 * How the search ranks, on small catalogues made for each behaviour: names before text, near
 * names, related words, common words discounted, odd and huge queries bounded, an index that
 * survives JSON. The quality on real data is search-quality.test.ts. These indexes are built
 * without word vectors (`vectors: null`), so each test sees the lexical step it is about; the
 * vectors have search-vectors.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { ToolRecord } from "../../src/discovery/records.js";
import { buildIndex } from "../../src/discovery/search-build.js";
import { INDEX_VERSION, type SearchIndex, search } from "../../src/discovery/search.js";
import type { Lexicon, RelatedWord } from "../../src/discovery/search/wordnet.js";
import { openWordNet } from "../../src/discovery/search/wordnet.js";

function tool(server: string, name: string, description: string, inputSchema?: ToolRecord["inputSchema"]): ToolRecord {
  return { server, tool: name, name: `${server}__${name}`, description, ...(inputSchema ? { inputSchema } : {}) };
}

const CATALOGUE: ToolRecord[] = [
  tool("fs", "read_file", "Return the contents of a file."),
  tool("fs", "write_file", "Write text to a file, replacing it."),
  tool("docs", "read_file", "Read a document of the knowledge base."),
  tool("notes", "summarise", "Summarise notes. Use read_file first? No: read file contents, read files, reading a file, read read read."),
  tool("weather", "get_forecast", "Weather forecast for a city.", {
    type: "object",
    properties: { city: { type: "string", description: "The city's name" }, days: { type: "integer", description: "How many days ahead" } },
  }),
  tool("git", "git_log", "Show the commit log."),
  tool("cn", "query-tickets", "查询12306余票信息。"),
];

const names = (index: SearchIndex, query: string, limit = 10) => search(index, query, limit).map((hit) => hit.name);

/** A lexicon from tables, so a test says exactly which words are related and how common. */
function fakeLexicon(related: Record<string, RelatedWord[]>, frequency: Record<string, number> = {}): Lexicon {
  return { related: (word) => related[word] ?? [], frequency: (word) => frequency[word] ?? 0 };
}

describe("search: names", () => {
  const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: null });

  it("ranks the tools named exactly first, before a tool whose text repeats the words", () => {
    const top = names(index, "read_file", 3);
    expect(top.slice(0, 2).sort()).toEqual(["docs__read_file", "fs__read_file"]);
    expect(top[2]).toBe("notes__summarise");
  });

  it("ranks SERVER__TOOL first exactly, when two servers have a tool of that name", () => {
    expect(names(index, "docs__read_file", 1)).toEqual(["docs__read_file"]);
    expect(names(index, "fs__read_file", 1)).toEqual(["fs__read_file"]);
  });

  it.each(["Read File", "read-file", "readFile", "READ_FILE", "raed_file", "read_fil", "  read_file  "])("finds read_file first for %j", (query) => {
    expect(names(index, query, 2).sort()).toEqual(["docs__read_file", "fs__read_file"]);
  });

  it("finds a tool whose name has no letters or digits by that exact name", () => {
    const index = buildIndex({ vectors: null, tools: [...CATALOGUE, tool("calc", "+", "Add two numbers.")], lexicon: null });
    expect(names(index, "+", 1)).toEqual(["calc__+"]);
    expect(names(index, "calc__+", 1)).toEqual(["calc__+"]);
  });

  it("takes a folded SERVER__TOOL as that tool ('docs read file')", () => {
    expect(names(index, "docs read file", 1)).toEqual(["docs__read_file"]);
  });

  it("takes the start of a name as that tool ('get_fore')", () => {
    expect(names(index, "get_fore", 1)).toEqual(["weather__get_forecast"]);
  });

  it("gives a tool named in a longer query a lift ('use git_log to see history')", () => {
    expect(names(index, "use git_log to see history", 1)).toEqual(["git__git_log"]);
  });
});

describe("search: text", () => {
  it("stems: 'writing files' finds write_file", () => {
    const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: null });
    expect(names(index, "writing files", 1)).toEqual(["fs__write_file"]);
  });

  it("reads parameter names and descriptions", () => {
    const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: null });
    expect(names(index, "how many days ahead", 1)).toEqual(["weather__get_forecast"]);
  });

  it("reads the server's description", () => {
    const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: null, serverDescriptions: { git: "Version control for source repositories" } });
    expect(names(index, "version control", 1)).toEqual(["git__git_log"]);
  });

  it("reaches a tool through a related word, below a tool holding the word itself", () => {
    const tools = [tool("a", "erase_record", "Erase a record."), tool("b", "remove_item", "Remove an item.")];
    const lexicon = fakeLexicon({ erase: [{ word: "remove", relation: "synonym" }] });
    const index = buildIndex({ vectors: null, tools, lexicon });
    expect(names(buildIndex({ vectors: null, tools: [tools[0]!], lexicon }), "remove")).toEqual(["a__erase_record"]);
    expect(names(buildIndex({ vectors: null, tools: [tools[0]!], lexicon: null }), "remove")).toEqual([]);
    expect(names(index, "remove")).toEqual(["b__remove_item", "a__erase_record"]);
  });

  it("still ranks by names and text when the lexicon cannot be read", () => {
    const broken: Lexicon = {
      related: () => {
        throw new Error("EIO: dict unreadable");
      },
      frequency: () => 0,
    };
    const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: broken });
    expect(names(index, "writing files", 1)).toEqual(["fs__write_file"]);
    expect(index.related).toEqual({});
  });

  it("discounts a word common in English against a rare one the catalogue uses as little", () => {
    const tools = [tool("a", "alpha", "Give a summary."), tool("b", "beta", "Forecast the tides.")];
    const lexicon = fakeLexicon({}, { give: 800, tide: 3 });
    expect(names(buildIndex({ vectors: null, tools, lexicon }), "give tides")[0]).toBe("b__beta");
    expect(search(buildIndex({ vectors: null, tools, lexicon: null }), "give tides")[0]!.score).toBe(
      search(buildIndex({ vectors: null, tools, lexicon: null }), "give tides")[1]!.score,
    );
  });

  it("takes a word whose stem is an unrelated word to its lemma instead ('news' is not 'new', 'organizations' not 'organ')", () => {
    const tools = [
      tool("a", "headlines", "Latest news from around the world."),
      tool("b", "create_project", "Create a new project."),
      tool("c", "members", "List the members of organizations."),
      tool("d", "organ_donors", "Find an organ donor."),
    ];
    const lexicon: Lexicon = {
      related: () => [],
      frequency: () => 0,
      baseForms: (word) => ({ news: ["news"], new: ["new"], organizations: ["organization"], organ: ["organ"] })[word] ?? [],
    };
    const index = JSON.parse(JSON.stringify(buildIndex({ vectors: null, tools, lexicon }))) as SearchIndex;
    expect(index.lemmas).toEqual({ news: "news", organization: "organization", organizations: "organization" });
    expect(names(index, "a new one")).toEqual(["b__create_project"]);
    expect(names(index, "world news")).toEqual(["a__headlines"]);
    expect(names(index, "organization")).toEqual(["c__members"]);
    expect(names(index, "organ")).toEqual(["d__organ_donors"]);
    // without a lexicon Porter alone conflates them
    expect(names(buildIndex({ vectors: null, tools, lexicon: null }), "a new one").sort()).toEqual(["a__headlines", "b__create_project"]);
  });

  it("keeps a stem WordNet relates to the word: 'recommendations' still finds 'recommend'; 'news' is kept whole with the real WordNet", () => {
    const tools = [tool("a", "suggest", "Recommendations for you."), tool("b", "headlines", "Latest news."), tool("c", "create", "Make a new thing.")];
    const index = buildIndex({ tools });
    expect(index.lemmas.news).toBe("news");
    expect(index.lemmas.recommendations).toBeUndefined();
    expect(names(index, "recommend a book")).toContain("a__suggest");
    expect(names(index, "news")).toEqual(["b__headlines"]);
  });

  it("takes a colliding word's other inflections to the same lemma: 'changing' still finds 'changes' ('chang' is a WordNet word)", () => {
    const tools = [tool("git", "diff", "Shows changes in the working tree."), tool("fs", "list", "List the files.")];
    const index = buildIndex({ tools });
    expect(index.lemmas.changes).toBe("change");
    expect(index.lemmas.changing).toBe("change");
    expect(names(index, "what is changing")).toEqual(["git__diff"]);
    expect(names(index, "changed")).toEqual(["git__diff"]);
  });

  it("finds Han text by character pairs", () => {
    const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: null });
    expect(names(index, "余票", 1)).toEqual(["cn__query-tickets"]);
  });
});

describe("search: odd input", () => {
  const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: null });

  it.each(["", "   ", "?!", "the of and", "🙂🙂", "constructor", "__proto__", "toString hasOwnProperty"])("answers %j with no hit and no error", (query) => {
    expect(search(index, query)).toEqual([]);
  });

  it("bounds the limit: 0 or negative gives nothing, a fraction is floored, NaN is the default", () => {
    expect(search(index, "file", 0)).toEqual([]);
    expect(search(index, "file", -3)).toEqual([]);
    expect(search(index, "file", 1.9)).toHaveLength(1);
    expect(search(index, "file", Number.NaN).length).toBeGreaterThan(1);
  });

  it("answers a huge query in bounded time", () => {
    const huge = `${"lorem ipsum dolor sit amet ".repeat(40_000)}read_file`;
    const started = performance.now();
    const hits = search(index, huge);
    expect(performance.now() - started).toBeLessThan(200);
    expect(hits.length).toBeLessThanOrEqual(10);
  });

  it("answers from an empty catalogue with nothing", () => {
    expect(search(buildIndex({ vectors: null, tools: [], lexicon: null }), "read_file")).toEqual([]);
  });
});

describe("search: the index", () => {
  it("survives JSON and says its version", () => {
    const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: fakeLexicon({ file: [{ word: "document", relation: "synonym" }] }) });
    const copy = JSON.parse(JSON.stringify(index)) as SearchIndex;
    expect(copy.version).toBe(INDEX_VERSION);
    for (const query of ["read_file", "document contents", "weather in paris", "raed_file"]) expect(search(copy, query)).toEqual(search(index, query));
  });

  it("returns hits in the documented shape, scores falling", () => {
    const index = buildIndex({ vectors: null, tools: CATALOGUE, lexicon: null });
    const hits = search(index, "file");
    expect(hits[0]).toEqual({
      name: expect.any(String),
      server: expect.any(String),
      tool: expect.any(String),
      description: expect.any(String),
      score: expect.any(Number),
    });
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
  });
});

describe("WordNet", () => {
  const wordnet = openWordNet();

  it("relates a word to its synonyms, derived forms and broader words, through its base form", () => {
    const related = (word: string) => wordnet.related(word).map((entry) => `${entry.relation} ${entry.word}`);
    expect(related("deleted")).toContain("synonym cancel");
    expect(related("delete")).toEqual(expect.arrayContaining(["derived deletion", "broader remove"]));
    expect(wordnet.related("xqzv")).toEqual([]);
    expect(wordnet.related("Not a word!")).toEqual([]);
  });

  it("gives a word's base forms in every part of speech, and none for a word it does not know", () => {
    expect(wordnet.baseForms("files")).toEqual(["file"]);
    expect(wordnet.baseForms("using").sort()).toEqual(["use", "using"]);
    expect(wordnet.baseForms("news")).toEqual(["news"]);
    expect(wordnet.baseForms("organizations")).toEqual(["organization"]);
    expect(wordnet.baseForms("xqzv")).toEqual([]);
    expect(wordnet.baseForms("Not a word!")).toEqual([]);
  });

  it("knows how common a word is", () => {
    expect(wordnet.frequency("give")).toBeGreaterThan(wordnet.frequency("news"));
    expect(wordnet.frequency("news")).toBeGreaterThan(0);
    expect(wordnet.frequency("xqzv")).toBe(0);
    wordnet.close();
  });
});
