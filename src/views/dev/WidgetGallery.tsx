import { parseDate, parseDateTime } from '@internationalized/date';
import { useState, type ReactNode } from 'react';
import { useShowToast } from '../../machines/appSystem.tsx';
import { Button, LinkButton, BUTTON_VARIANTS } from '../../widgets/Button.tsx';
import { CATEGORY_ICON_NAMES, CategoryIcon } from '../../widgets/CategoryIcon.tsx';
import { Checkbox, CheckboxGroup } from '../../widgets/Checkbox.tsx';
import { Chip, ChipRadioGroup } from '../../widgets/Chip.tsx';
import { ComboBox } from '../../widgets/ComboBox.tsx';
import { Confetti } from '../../widgets/Confetti.tsx';
import { CountBadge } from '../../widgets/CountBadge.tsx';
import { DatePicker } from '../../widgets/DatePicker.tsx';
import { ConfirmDialog, Dialog } from '../../widgets/Dialog.tsx';
import { Drawer, DRAWER_POSITIONS, DRAWER_VARIANTS, type DrawerProps } from '../../widgets/Drawer.tsx';
import { fileSize } from '../../contract/uploads.ts';
import { UPLOAD_MESSAGES } from '../../machines/upload.machine.ts';
import { FileUploader, type FileUploaderProps } from '../../widgets/FileUploader.tsx';
import { formatDate, relativeTime } from '../../widgets/format.ts';
import { ListBoxItem } from '../../widgets/ListBox.tsx';
import { Menu, MenuItem, MenuTrigger } from '../../widgets/Menu.tsx';
import { Message, MESSAGE_SEVERITIES, RetryMessage } from '../../widgets/Message.tsx';
import { PhoneInput } from '../../widgets/PhoneInput.tsx';
import { PlainButton, PlainLink } from '../../widgets/Pressable.tsx';
import { ProgressBar } from '../../widgets/ProgressBar.tsx';
import { ChoiceField, Radio, RadioGroup } from '../../widgets/RadioGroup.tsx';
import { SearchField } from '../../widgets/SearchField.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { Spinner } from '../../widgets/Spinner.tsx';
import { STATUS_TONES, StatusBadge } from '../../widgets/StatusBadge.tsx';
import { RequestStatusBadge } from '../requests/RequestStatusBadge.tsx';
import { Switch } from '../../widgets/Switch.tsx';
import { Cell, Column, Row as TableRow, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import { Tab, TabGroup, TabList, TabPanel, Tabs } from '../../widgets/Tabs.tsx';
import { TEXT_INPUT_TYPES, TextInput } from '../../widgets/TextInput.tsx';
import './WidgetGallery.css';

/** Developer page (non-production builds, /dev/widgets): every widget of the kit in every state. */

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <section className="lc-gallery__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="lc-gallery__row">
      <h3 className="lc-gallery__row-label">{label}</h3>
      <div className="lc-gallery__items">{children}</div>
    </div>
  );
}

function ButtonsSection() {
  const showToast = useShowToast();
  return (
    <Section title="Buttons">
      {BUTTON_VARIANTS.map((variant) => (
        <Row key={variant} label={`Variant ${variant}`}>
          <Button variant={variant} onPress={() => showToast({ message: `Pressed ${variant}`, autoDismiss: true })}>
            Continue
          </Button>
          <Button variant={variant} isLoading>Submitting</Button>
          <Button variant={variant} isDisabled>Continue</Button>
        </Row>
      ))}
      <Row label="Links styled as buttons">
        <LinkButton href="/dashboard">Go to Home</LinkButton>
        <LinkButton href="https://example.com" target="_blank" variant="secondary">Partner site</LinkButton>
        <LinkButton href="/requests" variant="tertiary">View all</LinkButton>
      </Row>
    </Section>
  );
}

function ChipsSection() {
  return (
    <Section title="Chips">
      <Row label="Button (toggle)">
        <Chip title="Own a home" description="House, condo or apartment" />
        <Chip title="Pet" description="Dogs, cats and more" defaultSelected />
        <Chip title="With image" description="The default image" image="default" />
        <Chip title="Disabled" description="Cannot be pressed" isDisabled />
        <Chip title="A long title that goes on and on so that it has to be clamped at two lines"
          description="And a description that is also far too long for the chip, so it is clamped at two lines as well, never more" />
      </Row>
      <Row label="Links">
        <Chip variant="link" href="/requests" title="Requests" description="Go to your requests" />
        <Chip variant="external-link" href="https://example.com" title="Partner" description="Opens in a new tab" image="default" />
        <Chip variant="link" href="/requests" title="Disabled link" description="Cannot be followed" isDisabled />
      </Row>
      <Row label="Radio">
        <ChipRadioGroup label="Category" defaultValue="all">
          <Chip variant="radio" value="all" title="All" description="Every category" />
          <Chip variant="radio" value="pet" title="Pet" description="Animals" />
          <Chip variant="radio" value="car" title="Car" description="Vehicles" isDisabled />
        </ChipRadioGroup>
        <ChipRadioGroup label="Invalid group" errorMessage="Please choose one">
          <Chip variant="radio" value="a" title="Option A" description="First" />
          <Chip variant="radio" value="b" title="Option B" description="Second" />
        </ChipRadioGroup>
      </Row>
      <Row label="Checkbox">
        <Chip variant="checkbox" title="Parent" description="Kids at home" />
        <Chip variant="checkbox" title="Partner" description="Spouse or partner" defaultSelected />
        <Chip variant="checkbox" title="Invalid" description="In the error state" isInvalid />
        <Chip variant="checkbox" title="Disabled" description="Cannot be ticked" isDisabled />
      </Row>
    </Section>
  );
}

function TextInputsSection() {
  return (
    <Section title="Text inputs">
      <div className="lc-gallery__fields">
        {TEXT_INPUT_TYPES.map((type) => (
          <TextInput key={type} label={`Type ${type}`} name={type} type={type} isRequired placeholder={type === 'date' ? undefined : `A ${type} value`} />
        ))}
        <TextInput label="Optional field" description="Not required, so the label says so" />
        <TextInput label="Email" type="email" isRequired defaultValue="not-an-email" errorMessage="Please enter a valid email address" />
        <TextInput label="Masked date" mask="99/99/9999" isRequired description="Mask 99/99/9999; cleared on blur if incomplete" />
        <TextInput label="Masked code" mask="aa-999?-99" isRequired description="Mask aa-999?-99: the last part is optional" />
        <TextInput label="Disabled" isRequired isDisabled defaultValue="Read only for now" />
      </div>
    </Section>
  );
}

function PhoneInputSection() {
  const [phone, setPhone] = useState('');
  return (
    <Section title="Phone input">
      <div className="lc-gallery__fields">
        <PhoneInput label="Phone" isRequired value={phone} onChange={setPhone} description={`Value: '${phone}'`} />
        <PhoneInput label="Phone with error" isRequired errorMessage="Please enter a valid phone number" />
        <PhoneInput label="Other slot character" slotChar="#" />
      </div>
    </Section>
  );
}

function MessagesSection() {
  const showToast = useShowToast();
  const [lifetimeRound, setLifetimeRound] = useState(0);
  return (
    <Section title="Messages">
      <div className="lc-gallery__stack">
        {MESSAGE_SEVERITIES.map((severity) => (
          <Message key={severity} severity={severity} title={`Severity ${severity}`}>
            Some words about what happened.
          </Message>
        ))}
        <Message severity="error">Unable to sign in at this time. Please try again later.</Message>
        <Message severity="info" onClose={() => showToast({ message: 'The message was closed.', autoDismiss: true })}>
          Closable: press Close to hide me.
        </Message>
        <Message key={lifetimeRound} severity="success" lifetime={5000}>I disappear after 5 seconds.</Message>
        <RetryMessage onRetry={() => showToast({ message: 'Asked again.', autoDismiss: true })}>
          We couldn't load this page. Please try again.
        </RetryMessage>
        <div><Button variant="secondary" onPress={() => setLifetimeRound((round) => round + 1)}>Show the 5-second message again</Button></div>
      </div>
    </Section>
  );
}

function TabsSection() {
  return (
    <Section title="Tabs">
      <Tabs titles={['To do (3)', 'Completed (2)', 'Ideas']} label="Gallery tabs">
        <p>The first panel. Swipe right over it (more than 50 px) for the next tab.</p>
        <p>The second panel.</p>
        <p>The third panel. Swipe left to go back.</p>
      </Tabs>
      <Row label="Segmented, from the parts (titles with counts)">
        <TabGroup variant="segmented">
          <TabList aria-label="Queue">
            <Tab id="new">New <span>4</span></Tab>
            <Tab id="mine">Mine <span>2</span></Tab>
            <Tab id="all">Everyone's <span>9</span></Tab>
            <Tab id="done" isDisabled>Done <span>0</span></Tab>
          </TabList>
          <TabPanel id="new">Four new requests.</TabPanel>
          <TabPanel id="mine">Two of mine.</TabPanel>
          <TabPanel id="all">Nine in all.</TabPanel>
          <TabPanel id="done">None done.</TabPanel>
        </TabGroup>
      </Row>
    </Section>
  );
}

const PLANS = [
  { id: 1, name: 'Basic', price: '$10', isActive: true },
  { id: 2, name: 'Family', price: '$25', isActive: true },
  { id: 3, name: 'Retired plan', price: '$5', isActive: false },
];

function TablesSection() {
  return (
    <Section title="Tables">
      <Table aria-label="Plans">
        <TableHeader>
          <Column isRowHeader>Plan</Column>
          <Column>Price</Column>
          <Column>Status</Column>
        </TableHeader>
        <TableBody items={PLANS}>
          {(plan) => (
            <TableRow id={plan.id}>
              <Cell>{plan.name}</Cell>
              <Cell>{plan.price}</Cell>
              <Cell>{plan.isActive ? 'Active' : 'Retired'}</Cell>
            </TableRow>
          )}
        </TableBody>
      </Table>
      <Table aria-label="No plans">
        <TableHeader>
          <Column isRowHeader>Plan</Column>
          <Column>Price</Column>
        </TableHeader>
        <TableBody renderEmptyState={() => 'No plans yet.'}>{[]}</TableBody>
      </Table>
    </Section>
  );
}

function DialogsSection() {
  const showToast = useShowToast();
  const [openDialog, setOpenDialog] = useState<'plain' | 'confirm' | 'refused' | null>(null);
  const close = () => setOpenDialog(null);
  return (
    <Section title="Dialogs">
      <div className="lc-gallery__items">
        <Button variant="secondary" onPress={() => setOpenDialog('plain')}>Open a dialog</Button>
        <Button variant="secondary" onPress={() => setOpenDialog('confirm')}>Ask to confirm</Button>
        <Button variant="secondary" onPress={() => setOpenDialog('refused')}>Ask, with a refusal</Button>
      </div>
      <Dialog isOpen={openDialog === 'plain'} onOpenChange={close} title="A dialog" isDismissable>
        <p>Escape or a click beside it closes me.</p>
        <div><Button onPress={close}>Done</Button></div>
      </Dialog>
      <ConfirmDialog isOpen={openDialog === 'confirm' || openDialog === 'refused'} title="Deactivate Acme?"
        confirmLabel="Deactivate" onCancel={close}
        refusal={openDialog === 'refused' ? 'Acme still has open requests.' : null}
        onConfirm={() => { close(); showToast({ message: 'Confirmed.', autoDismiss: true }); }}>
        <p>Its employees can no longer sign in.</p>
      </ConfirmDialog>
    </Section>
  );
}

function MenusSection() {
  const showToast = useShowToast();
  return (
    <Section title="Menus">
      <div className="lc-gallery__items">
        <MenuTrigger>
          <Button variant="secondary">Assign</Button>
          <Menu aria-label="Assign to" onAction={(key) => showToast({ message: `Chose ${String(key)}`, autoDismiss: true })}>
            <MenuItem id="Ana" description="Concierge">Ana Alvarez</MenuItem>
            <MenuItem id="Ben" description="Admin">Ben Brown</MenuItem>
            <MenuItem id="Cy" isDisabled>Cy (away)</MenuItem>
          </Menu>
        </MenuTrigger>
        <MenuTrigger>
          <Button variant="secondary">Account</Button>
          <Menu aria-label="Account" placement="bottom end" header={<strong>Jo Doe</strong>}>
            <MenuItem id="account">Manage your account</MenuItem>
          </Menu>
        </MenuTrigger>
      </div>
    </Section>
  );
}

const ROLES = [{ id: 'concierge', label: 'Concierge' }, { id: 'admin', label: 'Admin' }] as const;
const CITIES = [{ id: 'nyc', name: 'New York' }, { id: 'sf', name: 'San Francisco' }, { id: 'chi', name: 'Chicago' }];

function ChoicesSection() {
  const [role, setRole] = useState<'concierge' | 'admin'>('concierge');
  const [plan, setPlan] = useState<'monthly' | 'yearly'>('monthly');
  const [isOn, setIsOn] = useState(true);
  return (
    <Section title="Choices">
      <div className="lc-gallery__fields">
        <Select label="Role" options={ROLES} value={role} onChange={setRole} description="Opens a list" />
        <Select label="Role with error" options={ROLES} value={role} onChange={setRole} errorMessage="Choose another role" />
        <Select label="Disabled role" options={ROLES} value={role} onChange={setRole} isDisabled />
        <ComboBox label="City" items={CITIES} description="Type to filter" isRequired>
          {(city) => <ListBoxItem id={city.id}>{city.name}</ListBoxItem>}
        </ComboBox>
        <ChoiceField label="Billing" value={plan} onChange={setPlan} options={[
          { value: 'monthly', label: 'Monthly', description: 'Cancel any time' },
          { value: 'yearly', label: 'Yearly', description: 'Two months free' },
        ]} />
        <RadioGroup label="Size (pills)" defaultValue="m" orientation="horizontal" errorMessage="Pick a size">
          <div className="lc-gallery__items">
            <Radio variant="pill" value="s">Small</Radio>
            <Radio variant="pill" value="m">Medium</Radio>
            <Radio variant="pill" value="l" isDisabled>Large</Radio>
          </div>
        </RadioGroup>
        <CheckboxGroup label="Extras" description="Any of them" defaultValue={['wifi']}>
          <Checkbox value="wifi">Wi-Fi</Checkbox>
          <Checkbox value="parking" description="Two spaces">Parking</Checkbox>
          <Checkbox value="pool" isDisabled>Pool</Checkbox>
        </CheckboxGroup>
        <CheckboxGroup label="Invalid extras" errorMessage="Choose at least one">
          <Checkbox value="wifi">Wi-Fi</Checkbox>
        </CheckboxGroup>
        <div className="lc-gallery__stack">
          <Switch isSelected={isOn} onChange={setIsOn}>Show only my benefits ({isOn ? 'on' : 'off'})</Switch>
          <Switch isDisabled>Disabled switch</Switch>
        </div>
      </div>
    </Section>
  );
}

function DatesSection() {
  return (
    <Section title="Dates and times">
      <div className="lc-gallery__fields">
        <DatePicker label="Move-in date" isRequired defaultValue={parseDate('2025-06-15')} />
        <DatePicker label="Call at" granularity="minute" defaultValue={parseDateTime('2025-06-15T09:30')} description="A date and a time" />
        <DatePicker label="Deadline" errorMessage="Choose a date after today" isRequired />
        <DatePicker label="Disabled date" isDisabled defaultValue={parseDate('2025-06-15')} />
      </div>
    </Section>
  );
}

function SearchAndPlainSection() {
  const showToast = useShowToast();
  const [searched, setSearched] = useState('');
  return (
    <Section title="Search and plain pressables">
      <div className="lc-gallery__fields">
        <SearchField label="Search by name" onSubmit={setSearched} description={`Searched: '${searched}'`} />
      </div>
      <Row label="A plain button and a plain link (the caller draws them)">
        <PlainButton className="lc-gallery__plain" onPress={() => showToast({ message: 'Pressed the card.', autoDismiss: true })}>
          A pressable card
        </PlainButton>
        <PlainLink className="lc-gallery__plain" href="/requests">A card that links</PlainLink>
      </Row>
    </Section>
  );
}

type DrawerDemo = Pick<DrawerProps, 'position' | 'variant' | 'isDismissable' | 'fullScreen' | 'fullBleed'> & { name: string };

const DRAWER_DEMOS: DrawerDemo[] = [
  ...DRAWER_POSITIONS.flatMap((position) =>
    DRAWER_VARIANTS.map((variant) => ({ name: `${position} ${variant}`, position, variant }))),
  { name: 'dismissable', isDismissable: true },
  { name: 'full screen', fullScreen: true },
  { name: 'full bleed', fullBleed: true },
];

function DrawersSection() {
  const [openDemo, setOpenDemo] = useState<DrawerDemo | null>(null);
  return (
    <Section title="Drawers">
      <div className="lc-gallery__items">
        {DRAWER_DEMOS.map((demo) => (
          <Button key={demo.name} variant="secondary" onPress={() => setOpenDemo(demo)}>Open {demo.name}</Button>
        ))}
      </div>
      <Drawer isOpen={openDemo !== null} onOpenChange={(isOpen) => { if (!isOpen) setOpenDemo(null); }}
        title={`Drawer: ${openDemo?.name ?? ''}`} position={openDemo?.position} variant={openDemo?.variant}
        isDismissable={openDemo?.isDismissable} fullScreen={openDemo?.fullScreen} fullBleed={openDemo?.fullBleed}>
        <p>{openDemo?.isDismissable ? 'Escape and a backdrop click close me.' : 'Only the Close button closes me.'}</p>
        {Array.from({ length: 30 }, (_, index) => <p key={index}>Scrollable line {index + 1}</p>)}
      </Drawer>
    </Section>
  );
}

function ToastsSection() {
  const showToast = useShowToast();
  return (
    <Section title="Toasts">
      <div className="lc-gallery__items">
        <Button variant="secondary" onPress={() => showToast({ message: 'Saved. This toast stays until closed.' })}>Show a toast</Button>
        <Button variant="secondary" onPress={() => showToast({ message: 'This one goes away after 10 seconds.', autoDismiss: true })}>
          Show an auto-dismissing toast
        </Button>
        <Button variant="secondary" onPress={() => showToast({ message: 'An error toast still shows the success icon.', type: 'error' })}>
          Show an error toast
        </Button>
      </div>
    </Section>
  );
}

function ProgressSection() {
  return (
    <Section title="Spinner, progress and skeleton">
      <Row label="Spinner sizes (capped at 52)">
        {[16, 24, 40, 52, 80].map((size) => <Spinner key={size} size={size} />)}
      </Row>
      <div className="lc-gallery__stack">
        <ProgressBar label="Empty" value={0} />
        <ProgressBar label="Uploading" value={40} />
        <ProgressBar label="Done" value={100} />
        <ProgressBar label="Onboarding" value={66} valueLabel="Step 2 of 3" />
        <ProgressBar label="Indeterminate" isIndeterminate />
      </div>
      <Row label="Skeleton">
        <div className="lc-gallery__skeleton"><Skeleton /></div>
        <div className="lc-gallery__skeleton"><Skeleton lines={2} blockHeight={100} /></div>
      </Row>
    </Section>
  );
}

function ConfettiSection() {
  const [round, setRound] = useState(0);
  return (
    <Section title="Confetti">
      <Button variant="secondary" onPress={() => setRound((value) => value + 1)}>Throw confetti</Button>
      {round > 0 && <Confetti key={round} />}
    </Section>
  );
}

function CategoryIconsSection() {
  return (
    <Section title="Category icons">
      <ul className="lc-gallery__icons lc-tile-grid">
        {[...CATEGORY_ICON_NAMES, 'unknown category'].map((name) => (
          <li key={name}><CategoryIcon category={name} size={32} /> {name}</li>
        ))}
      </ul>
    </Section>
  );
}

function CountBadgesSection() {
  return (
    <Section title="Count badges">
      <div className="lc-gallery__row">
        {[0, 1, 12, 120].map((count) => (
          <span key={count}>Requests <CountBadge count={count} label={{ one: 'unread reply', other: 'unread replies' }} /></span>
        ))}
      </div>
    </Section>
  );
}

function FormattersSection() {
  // Fixed instants, so the examples read the same on every visit.
  const now = new Date('2025-06-15T12:00:00');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  return (
    <Section title="Formatters">
      <dl className="lc-gallery__formats">
        {[30, 300, 3600, 86400 * 3, 86400 * 45, 86400 * 800].map((seconds) => (
          <div key={seconds}><dt>relativeTime, {seconds} s earlier</dt><dd>{relativeTime(ago(seconds), now)}</dd></div>
        ))}
        {[0, 500, 1536, 1572864, 26214400].map((bytes) => (
          <div key={bytes}><dt>fileSize({bytes})</dt><dd>{fileSize(bytes)}</dd></div>
        ))}
        <div><dt>formatDate (mm/dd/yy)</dt><dd>{formatDate(now)}</dd></div>
        <div><dt>formatDate (DD, MM d)</dt><dd>{formatDate(now, 'DD, MM d')}</dd></div>
      </dl>
    </Section>
  );
}

const SAMPLE_FILE = new File(['%PDF-1.7\n%%EOF\n'], 'quote.pdf', { type: 'application/pdf' });
const NO_FILE = { file: null, status: null, percent: 0, error: null } as const;

/** The uploader as a screen's upload drives it; here a chosen file only waits, as one with no address does. */
function UploaderExample(props: Partial<FileUploaderProps>) {
  const [chosen, setChosen] = useState<File | null>(null);
  return (
    <FileUploader label="Choose a file" {...NO_FILE} file={chosen} onChoose={setChosen} onRemove={() => setChosen(null)} {...props} />
  );
}

function FileUploaderSection() {
  return (
    <Section title="File uploader">
      <Row label="Nothing chosen; a chosen file waits (no address: nothing is sent)">
        <UploaderExample />
      </Row>
      <Row label="Uploading">
        <UploaderExample file={SAMPLE_FILE} status="Uploading" percent={40} />
      </Row>
      <Row label="Uploaded">
        <UploaderExample file={SAMPLE_FILE} status="Uploaded" percent={100} />
      </Row>
      <Row label="A refused file">
        <UploaderExample error={UPLOAD_MESSAGES.invalidType('notes.txt')} />
      </Row>
      <Row label="A failed upload">
        <UploaderExample error={UPLOAD_MESSAGES.failed(SAMPLE_FILE.name)} />
      </Row>
      <Row label="Disabled">
        <UploaderExample file={SAMPLE_FILE} status="Uploaded" percent={100} isDisabled />
      </Row>
    </Section>
  );
}

function StatusBadgesSection() {
  return (
    <Section title="Status badges">
      <Row label="Tones">
        {STATUS_TONES.map((tone) => (
          <StatusBadge key={tone} tone={tone}>{tone}</StatusBadge>
        ))}
      </Row>
      <Row label="Request statuses (every screen)">
        {['open', 'in_progress', 'closed', 'archived'].map((status) => (
          <RequestStatusBadge key={status} status={status} />
        ))}
      </Row>
    </Section>
  );
}

export default function WidgetGallery() {
  return (
    <main className="lc-gallery">
      <h1>Widget gallery</h1>
      <ButtonsSection />
      <ChipsSection />
      <StatusBadgesSection />
      <TextInputsSection />
      <PhoneInputSection />
      <MessagesSection />
      <TabsSection />
      <TablesSection />
      <DialogsSection />
      <MenusSection />
      <ChoicesSection />
      <DatesSection />
      <SearchAndPlainSection />
      <DrawersSection />
      <ToastsSection />
      <ProgressSection />
      <ConfettiSection />
      <CategoryIconsSection />
      <CountBadgesSection />
      <FormattersSection />
      <FileUploaderSection />
    </main>
  );
}
