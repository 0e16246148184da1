import type { TaskPriority } from '@task-manager/shared';

/** The people and the work of the demo team (`pnpm seed:demo`). Only ASCII names: see avatar.ts. */
export interface DemoPerson {
  name: string;
  email: string;
  colour: string;
}

export const demoAdmin: DemoPerson = {
  name: 'Olivia Bennett',
  email: 'olivia.bennett@example.com',
  colour: '#4f46e5',
};

export const demoMembers: DemoPerson[] = [
  { name: 'Marcus Chen', email: 'marcus.chen@example.com', colour: '#0891b2' },
  { name: 'Priya Raman', email: 'priya.raman@example.com', colour: '#db2777' },
  { name: 'Daniel Okafor', email: 'daniel.okafor@example.com', colour: '#059669' },
  { name: 'Sofia Alvarez', email: 'sofia.alvarez@example.com', colour: '#d97706' },
  { name: "Liam O'Brien", email: 'liam.obrien@example.com', colour: '#7c3aed' },
  { name: 'Hannah Schmidt', email: 'hannah.schmidt@example.com', colour: '#dc2626' },
  { name: 'Kenji Watanabe', email: 'kenji.watanabe@example.com', colour: '#2563eb' },
  { name: 'Amara Nwosu', email: 'amara.nwosu@example.com', colour: '#65a30d' },
];

export interface DemoTask {
  title: string;
  priority: TaskPriority;
  description: string;
  checklist: string[];
  attachments?: string[];
}

const task = (
  title: string,
  priority: TaskPriority,
  description: string,
  checklist: string[],
  attachments?: string[],
): DemoTask => ({ title, priority, description, checklist, attachments });

export const demoTasks: DemoTask[] = [
  task(
    'Prepare Q3 board presentation',
    'High',
    'Summarise revenue, hiring and roadmap progress for the quarterly board meeting. Keep it to fifteen slides and send the pre-read two days ahead.',
    [
      'Collect finance figures',
      'Draft slide outline',
      'Add hiring update',
      'Review with CEO',
      'Send pre-read to the board',
    ],
    ['https://drive.example.com/board/q3-deck-draft', 'https://wiki.example.com/board/agenda'],
  ),
  task(
    'Migrate customer database to PostgreSQL 16',
    'High',
    'Upgrade the production cluster before the current version reaches end of life. The maintenance window must stay under thirty minutes.',
    [
      "Test a restore of last night's dump",
      'Rehearse the migration on staging',
      'Announce the maintenance window',
      'Run the migration',
      'Check application metrics',
    ],
  ),
  task(
    'Redesign the onboarding e-mail sequence',
    'Medium',
    'The welcome e-mails have a 12% click rate. Rewrite the five-mail sequence around the first project a new customer creates.',
    ['Audit the current e-mails', 'Write new copy', 'Design templates', 'Set up an A/B test'],
  ),
  task(
    'Fix sign-out on mobile Safari',
    'High',
    'iPhone users are signed out a few minutes after the app goes to the background. Reproduce, fix and add a regression test.',
    ['Reproduce on a device', 'Find the root cause', 'Ship the fix', 'Add a regression test'],
    ['https://support.example.com/tickets/48213'],
  ),
  task(
    'Plan the team offsite in September',
    'Low',
    'Two days for the whole team, within two hours of the office, at most 400 per person including travel.',
    ['Shortlist venues', 'Collect dietary needs', 'Book the venue', 'Draft the agenda'],
  ),
  task(
    'Update the privacy policy for the new analytics tool',
    'Medium',
    'The new product analytics tool processes IP addresses. The policy and the cookie banner must say so before it goes live.',
    [
      'Review the data processing agreement',
      'Draft policy changes',
      'Legal review',
      'Publish and notify users',
    ],
  ),
  task(
    'Write API documentation for webhooks',
    'Medium',
    'Partners keep asking how to verify webhook signatures. Document every event with an example payload and a verification snippet.',
    [
      'List webhook events',
      'Document payloads',
      'Add a signature verification example',
      'Publish the docs',
    ],
  ),
  task(
    'Hire a senior backend engineer',
    'High',
    'The platform team is one person short since June. Aim for a signed offer within six weeks.',
    [
      'Finalise the job description',
      'Post on job boards',
      'Screen candidates',
      'Schedule onsite interviews',
      'Make an offer',
    ],
    ['https://jobs.example.com/senior-backend-engineer'],
  ),
  task(
    'Renew TLS certificates for staging',
    'High',
    'The staging certificates expire at the end of the month; automate the renewal this time so it does not happen again.',
    ['Check expiry dates', 'Set up automatic renewal', 'Deploy to the load balancer'],
  ),
  task(
    'Interview customers about reporting',
    'Medium',
    'Find out which reports customers build in spreadsheets today, to decide what the reporting feature should do first.',
    [
      'Recruit eight customers',
      'Prepare the interview guide',
      'Run the interviews',
      'Summarise findings',
    ],
  ),
  task(
    'Bring dashboard load time under two seconds',
    'High',
    'The admin dashboard takes five seconds for teams with more than 5,000 tasks. Profile it and fix the worst offenders.',
    ['Profile slow queries', 'Add missing indexes', 'Cache chart data', 'Measure again'],
  ),
  task(
    'Prepare the monthly newsletter',
    'Low',
    "Three stories from this month's releases and one customer tip. Send on the first Tuesday.",
    ['Pick three stories', 'Write copy', 'Add screenshots', 'Schedule the send'],
  ),
  task(
    'Set up automated database backups',
    'High',
    'Nightly backups with thirty days of retention, and a monthly test restore so we know they work.',
    ['Choose a backup schedule', 'Write the backup job', 'Test a restore', 'Set up alerting'],
  ),
  task(
    'Review vendor contracts up for renewal',
    'Medium',
    'Four SaaS contracts renew this quarter. Check actual usage against the plans before signing again.',
    [
      'List contracts expiring this quarter',
      'Compare usage with the plan',
      'Negotiate discounts',
      'Sign renewals',
    ],
  ),
  task(
    'Translate the app into Spanish',
    'Medium',
    'Our second-largest market asked for a Spanish interface. Start with the task screens and e-mails.',
    ['Extract strings', 'Send to the translator', 'Review translations', 'Release'],
  ),
  task(
    'Organise security awareness training',
    'Medium',
    'Yearly training is due for everyone; the insurer asks for proof of completion.',
    ['Pick a training provider', 'Schedule sessions', 'Track completion'],
  ),
  task(
    'Clean up unused feature flags',
    'Low',
    'Thirty-one flags are older than ninety days and fully rolled out. Remove the flags and the dead code behind them.',
    ['List flags older than 90 days', 'Remove the dead code', 'Delete the flags'],
  ),
  task(
    'Design the new pricing page',
    'High',
    "The pricing page still shows last year's plans. Design a page that explains the three new tiers at a glance.",
    [
      'Gather competitor examples',
      'Wireframe',
      'High-fidelity design',
      'Usability test with five people',
    ],
    ['https://design.example.com/files/pricing-page'],
  ),
  task(
    'Close the books for October',
    'High',
    'Month-end close: everything reconciled and the report with the CFO by the fifth working day.',
    [
      'Reconcile bank accounts',
      'Review expense reports',
      'Accrue unpaid invoices',
      'Send the report to the CFO',
    ],
  ),
  task(
    'Improve search in the help centre',
    'Medium',
    'A third of help-centre searches find nothing. Use the failed searches to fix synonyms and the top articles.',
    ['Collect failed searches', 'Add synonyms', 'Rewrite the top ten articles'],
  ),
  task(
    'Set up an on-call rotation',
    'Medium',
    'Share the pager between four engineers, one week each, with a clear escalation path.',
    [
      'Define the escalation policy',
      'Configure the paging tool',
      'Write the runbook',
      'Hold a handover meeting',
    ],
  ),
  task(
    'Publish the Northwind case study',
    'Low',
    'Northwind cut their project overruns by a third; they agreed to a case study with their logo.',
    [
      'Interview the customer',
      'Draft the case study',
      'Get customer approval',
      'Publish and share',
    ],
  ),
  task(
    'Accessibility audit of the web app',
    'High',
    'A public-sector customer needs WCAG 2.1 AA. Audit the app and fix what blocks keyboard and screen-reader users.',
    [
      'Run automated checks',
      'Test with a screen reader',
      'Fix keyboard traps',
      'Fix colour contrast',
      'Write the accessibility statement',
    ],
  ),
  task(
    'Replace the oldest laptops',
    'Low',
    'Six laptops are over four years old and no longer get security updates.',
    ['Inventory current laptops', 'Get quotes', 'Order replacements', 'Wipe old devices'],
  ),
  task(
    'Quarterly OKR review',
    'Medium',
    "Score this quarter's key results with each team and draft the next quarter's.",
    ['Collect team updates', 'Score key results', "Draft next quarter's OKRs"],
  ),
  task(
    'Import tasks from CSV files',
    'Medium',
    'Teams moving from spreadsheets want to bring their task lists along. Support a simple CSV with a preview before import.',
    ['Define the file format', 'Build the upload form', 'Validate rows', 'Show an import summary'],
  ),
  task(
    'Investigate the spike in support tickets',
    'High',
    "Tickets doubled since Monday's release. Find the common cause and keep affected customers informed.",
    [
      "Tag last week's tickets",
      'Find the common cause',
      'Post a status update',
      'Follow up with affected customers',
    ],
    ['https://status.example.com/incidents/2031'],
  ),
  task(
    'Prepare the trade show booth',
    'Medium',
    'Stand 14B at the Productivity Expo: banners, brochures and a working demo.',
    ['Order banners', 'Print brochures', 'Book travel', 'Prepare the demo laptop'],
  ),
  task(
    'Write performance review templates',
    'Low',
    'One self-review and one manager form, short enough to fill in within an hour.',
    ['Draft the self-review form', 'Draft the manager form', 'Get feedback from team leads'],
  ),
  task(
    'Upgrade Node.js to version 22',
    'Medium',
    'Version 20 leaves active support soon. Upgrade CI and production and clear the deprecation warnings.',
    ['Update CI images', 'Run the test suite', 'Fix deprecation warnings', 'Deploy to staging'],
  ),
  task(
    'Social media calendar for Q4',
    'Low',
    'Two posts a week, built around the year-end release and the customer webinar.',
    ['Brainstorm themes', 'Draft posts', 'Design visuals', 'Schedule posts'],
  ),
  task(
    'Negotiate the office lease extension',
    'High',
    "The lease ends in March. Extend for two years if the rent stays within 5% of today's.",
    ['Review current terms', 'Compare market rates', 'Meet the landlord', 'Sign the extension'],
  ),
  task(
    'Add two-factor authentication',
    'High',
    'Enterprise prospects require 2FA. Offer authenticator apps with recovery codes.',
    ['Choose a TOTP library', 'Build the setup flow', 'Add recovery codes', 'Update the help docs'],
  ),
  task(
    'Record a product demo video',
    'Medium',
    'A three-minute walkthrough for the home page: create a task, assign it, follow progress.',
    ['Write the script', 'Record the screen capture', 'Edit the video', 'Upload to the website'],
  ),
  task(
    'Audit cloud spending',
    'Medium',
    'The cloud bill grew 40% in six months while traffic grew 10%. Find and remove the waste.',
    [
      'Export three months of billing',
      'Identify idle resources',
      'Resize instances',
      'Set budget alerts',
    ],
  ),
  task(
    'Onboard the new support agent',
    'Medium',
    'Jordan starts on Monday. By Friday they should take tickets on their own.',
    ['Create accounts', 'Shadow a senior agent', 'Review macros', 'First solo shift'],
  ),
  task(
    'Fix broken links on the marketing site',
    'Low',
    'The link checker reports 23 broken links, mostly to old blog posts.',
    ['Run the link checker', 'Fix or redirect links', 'Run the checker again'],
  ),
  task(
    "Draft next year's hiring plan",
    'High',
    'Collect headcount requests from every team and fit them into the budget before the planning meeting.',
    [
      'Collect headcount requests',
      'Align with the budget',
      'Prioritise roles',
      'Present to leadership',
    ],
  ),
  task(
    'Set up error monitoring alerts',
    'Medium',
    'Errors reach the monitoring tool but nobody is told. Alert the team channel when the error rate jumps.',
    ['Define alert thresholds', 'Route alerts to the team channel', 'Test with a forced error'],
  ),
  task(
    'Write release notes for version 2.4',
    'Medium',
    'Highlights first, then the full list. Screenshots for the new dashboard.',
    ['List merged changes', 'Write highlights', 'Add screenshots', 'Publish'],
  ),
  task(
    'Run the customer satisfaction survey',
    'Low',
    "Ten questions, sent to every active account; compare with last year's results.",
    ['Write questions', 'Send the survey', 'Analyse answers', 'Share results'],
  ),
  task(
    'Refactor the notification service',
    'Medium',
    'E-mail and push share one class of 1,400 lines. Split them so each can change without breaking the other.',
    ['Write characterisation tests', 'Split e-mail and push senders', 'Remove the legacy queue'],
  ),
  task(
    'Update the employee handbook',
    'Low',
    "Add the remote-work policy agreed in the spring and next year's holidays.",
    ['Add the remote-work policy', 'Update the holiday calendar', 'Publish on the intranet'],
  ),
  task(
    'Plan database index maintenance',
    'Low',
    'Some indexes have grown to three times their data size. Plan a regular rebuild.',
    ['Find bloated indexes', 'Schedule the rebuild', 'Document the procedure'],
  ),
  task(
    'Prepare the investor update',
    'Medium',
    'The monthly update: metrics, highlights, lowlights and what we need help with.',
    ['Gather metrics', 'Write highlights and lowlights', 'Review with the CEO', 'Send the update'],
  ),
  task(
    'Build the weekly sales report',
    'Medium',
    'Sales wants pipeline and closed deals every Monday morning without asking anyone.',
    ['Define metrics with the sales lead', 'Build the query', 'Automate the Monday e-mail'],
  ),
  task(
    'Design the mobile navigation',
    'High',
    'The mobile menu hides half the screens. Find a navigation that works with one thumb.',
    ['Map current screens', 'Sketch navigation options', 'Prototype', 'Test with users'],
    ['https://design.example.com/files/mobile-navigation'],
  ),
  task(
    'Resolve duplicate invoices in billing',
    'High',
    'A retry bug charged 37 customers twice last month. Refund them and fix the bug.',
    [
      'Find affected accounts',
      'Issue credit notes',
      'Fix the retry bug',
      'E-mail affected customers',
    ],
  ),
  task(
    'Archive completed projects from last year',
    'Low',
    'Free up the shared drive: export finished projects and move them to cold storage.',
    ['List projects', 'Export files', 'Move to the archive'],
  ),
  task(
    'Staging environment for partners',
    'Medium',
    'Integration partners need a place to test against realistic data without touching production.',
    ['Provision servers', 'Load sample data', 'Create partner accounts', 'Share the access guide'],
  ),
  task(
    'Blog post on remote collaboration',
    'Low',
    'What we learned running a team across four time zones, with practical tips.',
    ['Outline the post', 'Write the first draft', 'Edit', 'Publish'],
  ),
  task(
    'Review and rotate API keys',
    'High',
    'Some production keys have not changed in two years. Rotate them without downtime.',
    ['List active keys', 'Rotate production keys', 'Update the secrets store', 'Revoke old keys'],
  ),
  task(
    'Coordinate the year-end party',
    'Low',
    'Friday before the holidays, partners welcome, vegetarian options for everyone.',
    ['Pick the date', 'Book the venue', 'Send invitations', 'Order catering'],
  ),
  task(
    'Improve test coverage of payments',
    'Medium',
    'Refunds and failed charges have almost no tests, and they are where the last two incidents came from.',
    ['Measure current coverage', 'Add tests for refunds', 'Add tests for failed charges'],
  ),
  task(
    'Onboarding checklist for new hires',
    'Medium',
    'Every new hire gets the same first week: accounts, a buddy and a first small task.',
    ['List first-week tasks', 'Assign buddies', 'Template for account requests'],
  ),
  task(
    'Evaluate CRM alternatives',
    'Medium',
    'Our CRM contract ends in spring. Compare three alternatives on the features sales uses daily.',
    ['List requirements', 'Shortlist three tools', 'Run trials', 'Write a recommendation'],
    ['https://wiki.example.com/sales/crm-requirements'],
  ),
  task(
    'Move file storage to the new bucket',
    'Medium',
    'The old bucket has no lifecycle rules and stores everything forever.',
    [
      'Create the bucket with lifecycle rules',
      'Copy files',
      'Switch the application config',
      'Delete the old bucket',
    ],
  ),
  task(
    'Quarterly access review',
    'High',
    'Auditors ask for evidence that every account in every tool is still needed.',
    ['Export user lists from each tool', 'Managers confirm access', 'Remove stale accounts'],
  ),
  task(
    'Plan the customer webinar',
    'Medium',
    'A 45-minute session on running weekly planning with Task Manager, with a customer guest.',
    [
      'Choose the topic',
      'Book speakers',
      'Set up the registration page',
      'Send invitations',
      'Rehearse',
    ],
  ),
  task(
    'Document the incident response process',
    'Medium',
    'Write down who does what during an outage, then rehearse it once.',
    ['Define severity levels', 'Write communication templates', 'Run a tabletop exercise'],
  ),
];
