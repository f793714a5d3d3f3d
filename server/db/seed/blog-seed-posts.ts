import { DRAFT, PUBLISHED } from '../../../contract/blog';
import { type BlogPostForm } from '../../../contract/blog-form';
import type { Motif } from './blog-seed-art';

/** The demo blog: notes on the writing process and historical research (most published). */
export interface SeedPost extends Pick<
  BlogPostForm,
  'title' | 'excerpt' | 'content' | 'publication_date' | 'read_time' | 'status'
> {
  slug: string;
  motif: Motif;
}

export const SEED_POSTS: SeedPost[] = [
  {
    slug: 'keeping-a-research-log-your-future-self-can-read',
    title: 'Keeping a Research Log Your Future Self Can Read',
    excerpt:
      'Six months from now you will not remember why a box number mattered. A plain, dated research log is the cheapest insurance a historian can buy.',
    publication_date: 'August 6, 2025',
    read_time: '5 min read',
    status: PUBLISHED,
    motif: 'notebook',
    content: `<p>Every researcher has lost an afternoon hunting for a reference they were <em>sure</em> they had written down. The note exists, somewhere, as a photo named IMG_4471 or a line in the margin of a printout. A research log is the habit that makes that afternoon rare.</p>
<h2>One entry per session</h2>
<p>Start each session with the date, the place (archive, library, database) and the question you came with. End it with what you found, what you did not find, and what you would look at next. The last part is the one people skip, and it is the one that saves the most time.</p>
<ul><li><strong>Where:</strong> repository, collection, box and folder, or the database and the exact search string.</li><li><strong>What:</strong> a one-line summary of each useful item, with its full reference.</li><li><strong>Negative results:</strong> the runs of files you checked that held nothing. They stop you from checking them again.</li></ul>
<h2>Write for a stranger</h2>
<p>Write as if the log will be read by a colleague who has never seen your project. Abbreviations that feel obvious in the reading room are riddles three months later. If a document surprised you, say why in a sentence: surprise is usually the start of an argument.</p>
<h2>Keep it boring</h2>
<p>A plain text file or a simple notebook outlives most note-taking apps. The format matters far less than the discipline of writing an entry every time, even when the session produced nothing. Especially then.</p>`,
  },
  {
    slug: 'reading-old-handwriting-a-beginners-guide-to-palaeography',
    title: "Reading Old Handwriting: A Beginner's Guide to Palaeography",
    excerpt:
      'Secretary hand, long s and abbreviations that save a scribe two strokes: how to start reading documents that look unreadable at first sight.',
    publication_date: 'July 22, 2025',
    read_time: '6 min read',
    status: PUBLISHED,
    motif: 'manuscript',
    content: `<p>The first time you open a seventeenth-century parish register, the page can look like a fence of identical strokes. It is not. Scribes followed rules, and once you know a handful of them the page starts to speak.</p>
<h2>Begin with what you already know</h2>
<p>Find words you can predict: names you expect, dates, formulae such as <em>"in the name of God, amen"</em> at the head of a will. Build an alphabet from those words, letter by letter, and keep it beside you.</p>
<h2>Expect abbreviations</h2>
<p>Writing materials were expensive and time was short, so scribes shortened common words. A line above a letter often stands for a missing <em>m</em> or <em>n</em>; a superscript ending stands for the rest of the word. Transcribe what you see first, then expand it in square brackets, so a reader can tell your reading from the text.</p>
<ol><li>Transcribe line by line, keeping the original line breaks.</li><li>Mark doubtful readings with a question mark rather than guessing silently.</li><li>Return to hard passages the next day: fresh eyes read more.</li></ol>
<h2>Practise a little, often</h2>
<p>Twenty minutes a day with digitised documents does more than a weekend of heroic effort. Many archives publish practice sheets with transcriptions; check your reading against them and note the letters you keep getting wrong.</p>`,
  },
  {
    slug: 'the-first-draft-is-a-map-not-the-territory',
    title: 'The First Draft Is a Map, Not the Territory',
    excerpt:
      'A first draft exists to show you what you think. Treating it as a sketch map, not a finished book, makes it faster to write and easier to fix.',
    publication_date: 'July 8, 2025',
    read_time: '4 min read',
    status: PUBLISHED,
    motif: 'draft',
    content: `<p>Many writers stall because they expect the first draft to be the book. It cannot be. Its job is to tell you where the argument goes, where the evidence is thin, and which chapter is really two chapters.</p>
<h2>Draft forward</h2>
<p>When you notice a problem in an earlier section, write yourself a note in brackets and keep going. Revising the opening for the fifth time feels productive, but it hides the fact that the ending does not exist yet.</p>
<h2>Leave markers</h2>
<p>Use a consistent marker such as <strong>[CHECK]</strong> for facts to verify and <strong>[SOURCE]</strong> for claims that need a reference. A search for the marker later turns into a to-do list.</p>
<h2>Stop mid-sentence</h2>
<p>Ending a session in the middle of a paragraph you know how to finish makes the next session start easily. The hardest part of writing is usually the first ten minutes; give them something easy.</p>`,
  },
  {
    slug: 'dating-an-undated-letter',
    title: 'Dating an Undated Letter: Clues from Paper, Ink and Post',
    excerpt:
      'Watermarks, postal markings, forms of address and the events a writer mentions in passing can narrow an undated letter to a season, sometimes a week.',
    publication_date: 'June 24, 2025',
    read_time: '6 min read',
    status: PUBLISHED,
    motif: 'letter',
    content: `<p>Letters often survive without a year. Writers knew when they were writing; they did not imagine us. Dating one is detective work, and the best results come from several weak clues that agree.</p>
<h2>The object</h2>
<ul><li><strong>Paper:</strong> a watermark or a maker's countermark can give a date the paper could not be older than.</li><li><strong>Postal markings:</strong> stamps, postmarks and charges changed on known dates.</li><li><strong>Folding and sealing:</strong> envelopes, wafers and sealing wax each had their period.</li></ul>
<h2>The text</h2>
<p>Look for events mentioned in passing: an election, a storm, a death in the family, a price. Cross-check them against newspapers and other letters in the same collection. Forms of address change too; a correspondent who becomes "my dear friend" after years of "Sir" marks a turning point you may be able to date.</p>
<h2>Say how sure you are</h2>
<p>Record the date as a range with your reasons, for example <em>"spring 1843 (postmark, reference to the April flood)"</em>. A precise date you cannot defend is worse than an honest range.</p>`,
  },
  {
    slug: 'working-in-the-archive-what-to-bring-what-to-ask',
    title: 'Working in the Archive: What to Bring, What to Ask',
    excerpt:
      'Archivists know their collections better than any catalogue. A short, specific question on the first morning can save you a week of ordering the wrong boxes.',
    publication_date: 'June 10, 2025',
    read_time: '5 min read',
    status: PUBLISHED,
    motif: 'archive',
    content: `<p>A visit to an archive is expensive in time and often in travel. Preparation turns a week of browsing into a week of finding.</p>
<h2>Before you go</h2>
<ol><li>Read the catalogue and the collection guides, and order items in advance where you can.</li><li>Check the rules: pencils only, photography permits, opening hours, how many items per order.</li><li>Bring a list of exact references, with a second list for when the first runs dry.</li></ol>
<h2>Talk to the archivist</h2>
<p>Explain your question in two sentences and ask what else might answer it. Uncatalogued accessions, related collections elsewhere and the quirks of an old reference system are the kind of knowledge that is rarely written down.</p>
<h2>Record as you go</h2>
<p>Photograph the folder label before the documents inside it, so every image carries its reference. At the end of each day, rename and back up the photos and write your research log while the details are fresh.</p>`,
  },
  {
    slug: 'revising-in-three-passes',
    title: 'Revising in Three Passes',
    excerpt:
      'Structure first, paragraphs second, sentences last. Separating the passes stops you polishing prose that the next cut will remove.',
    publication_date: 'May 27, 2025',
    read_time: '5 min read',
    status: PUBLISHED,
    motif: 'revision',
    content: `<p>Revision goes faster when you do one kind of work at a time. Trying to fix the argument, the paragraphs and the commas in a single reading means doing none of them well.</p>
<h2>Pass one: structure</h2>
<p>Write a one-line summary of every section on a separate page. Does the order follow the argument? Is anything said twice? Move and cut at this level before you touch a sentence.</p>
<h2>Pass two: paragraphs</h2>
<p>Each paragraph should make one point, and its first sentence should tell the reader what that point is. Check that evidence sits next to the claim it supports, not two pages later.</p>
<h2>Pass three: sentences</h2>
<p>Now read aloud. Shorten what you stumble over, replace vague verbs, and cut the qualifiers that crept in while you were unsure. <em>"It could perhaps be argued"</em> usually means "I argue".</p>`,
  },
  {
    slug: 'when-sources-disagree',
    title: 'When Sources Disagree: Weighing Conflicting Accounts',
    excerpt:
      'Two witnesses, two stories. Asking who wrote each account, when, and for whom usually explains the difference, and the difference is often the finding.',
    publication_date: 'May 13, 2025',
    read_time: '7 min read',
    status: PUBLISHED,
    motif: 'scales',
    content: `<p>Sooner or later two sources will contradict each other on a date, a number or what happened in a room. The temptation is to pick the one that suits the argument. The better move is to explain the contradiction.</p>
<h2>Ask the standard questions</h2>
<ul><li>Who produced each account, and were they there?</li><li>How long after the event was it written?</li><li>Who was it written for, and what did the writer want from that reader?</li><li>Did one account copy the other, or a third source?</li></ul>
<h2>Look for the common core</h2>
<p>Accounts that disagree on details often agree on a core of facts. State that core with confidence, then set out the disputed details with the reasons for each version.</p>
<h2>Let the reader see the work</h2>
<p>A short note explaining why you prefer one source is worth more than a silent choice. Readers trust a writer who shows the seams.</p>`,
  },
  {
    slug: 'footnotes-as-a-conversation-with-the-reader',
    title: 'Footnotes as a Conversation with the Reader',
    excerpt:
      'A good note tells the reader where a claim comes from and how far to trust it. It is not a storage room for everything that did not fit the text.',
    publication_date: 'April 29, 2025',
    read_time: '4 min read',
    status: PUBLISHED,
    motif: 'footnote',
    content: `<p>Notes let a reader check your work. They also tempt writers to park every interesting aside at the foot of the page, until the notes are longer than the text.</p>
<h2>What a note is for</h2>
<ol><li>Giving the source of a quotation, figure or claim precisely enough to find it again.</li><li>Saying how reliable that source is when it is not obvious.</li><li>Pointing to the debate when the point is contested.</li></ol>
<h2>What it is not for</h2>
<p>If an aside matters to the argument, it belongs in the text. If it does not, it may not belong in the book. A useful test: would a reader who skipped the note miss anything they need?</p>
<h2>Be consistent</h2>
<p>Pick a citation style early and keep a reference list as you go. Reconstructing references at the end of a project is one of the most avoidable miseries of writing.</p>`,
  },
  {
    slug: 'oral-history-interviews-listening-before-writing',
    title: 'Oral History Interviews: Listening Before Writing',
    excerpt:
      'An interview is a source with a voice. Preparing well, asking open questions and recording consent properly make it one you can cite with confidence.',
    publication_date: 'April 15, 2025',
    read_time: '6 min read',
    status: PUBLISHED,
    motif: 'interview',
    content: `<p>Oral history captures what documents leave out: how it felt, who was in the room, what people said but never wrote. It also brings responsibilities that archival work does not.</p>
<h2>Prepare, then put the list away</h2>
<p>Read what you can about the person and the period, and write your questions. Then be ready to follow the conversation where it goes; the best material often comes from an answer to a question you did not plan.</p>
<h2>Ask open questions</h2>
<ul><li>"Can you describe a normal working day?" rather than "Was the work hard?"</li><li>"What happened next?" to keep a story moving.</li><li>Silence: a pause invites the speaker to add what they were weighing.</li></ul>
<h2>Consent and care</h2>
<p>Explain how the recording will be used and kept, and record consent in writing. Offer the speaker a copy. Treat memory as a source like any other: valuable, partial, and best read beside other evidence.</p>`,
  },
  {
    slug: 'building-a-timeline-before-you-write-a-chapter',
    title: 'Building a Timeline Before You Write a Chapter',
    excerpt:
      'A working chronology of every dated fact in your notes exposes gaps, coincidences and impossible sequences before a reader does.',
    publication_date: 'September 2, 2025',
    read_time: '4 min read',
    status: DRAFT,
    motif: 'timeline',
    content: `<p>Before drafting a chapter, put every dated fact from your notes into one chronology, with its source. It takes an afternoon and it routinely changes the chapter.</p>
<h2>What it shows</h2>
<ul><li>Gaps: months where you have no evidence at all.</li><li>Coincidences: two events in the same week that your notes kept apart.</li><li>Impossibilities: a person writing from a city they had already left.</li></ul>
<p>Keep the timeline as a table with columns for date, event, source and certainty, and update it as you write.</p>`,
  },
  {
    slug: 'old-newspapers-and-the-missing-context',
    title: 'Old Newspapers and the Problem of the Missing Context',
    excerpt:
      'Digitised newspapers make a search of decades take seconds. Reading the whole page around a hit is what turns it into evidence.',
    publication_date: 'September 16, 2025',
    read_time: '5 min read',
    status: DRAFT,
    motif: 'newspaper',
    content: `<p>Full-text search of historical newspapers has changed research, but a keyword hit is a fragment. The article sits on a page, in an issue, in a paper with owners and readers.</p>
<h2>Read around the hit</h2>
<p>Look at the whole page and the issues on either side. Who owned the paper, what did it usually print, and was this story reprinted from elsewhere?</p>
<h2>Mind the text recognition</h2>
<p>Recognised text is imperfect; absence of a hit is not absence of a story. Try spelling variants and browse the issues that matter most.</p>`,
  },
  {
    slug: 'writing-routines-of-working-historians',
    title: 'Writing Routines of Working Historians',
    excerpt:
      'Mornings or evenings, word counts or hours: what steady writers have in common is less a schedule than a protected, repeated time.',
    publication_date: 'October 1, 2025',
    read_time: '3 min read',
    status: DRAFT,
    motif: 'desk',
    content: `<p>Ask historians who finish books how they write and the answers differ in every detail. Some write before breakfast, some after teaching, some in long weekend blocks.</p>
<p>What they share is a time that is <strong>protected</strong> and <strong>repeated</strong>. Research can expand to fill any week; writing needs a fence around it.</p>`,
  },
];
