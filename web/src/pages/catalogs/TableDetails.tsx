import { useQuery } from '@tanstack/react-query';
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { ColumnsTab } from './ColumnsTab';
import { ContractTab, QualityTab } from './GovernanceTabs';
import { tableQuery } from './queries';
import { LineageTab, SampleTab } from './Tabs';

const TABS = ['columns', 'sample', 'details', 'history', 'lineage', 'quality', 'contract'] as const;
type TabId = (typeof TABS)[number];

const tabStyle = ({ isSelected, isFocusVisible }: { isSelected: boolean; isFocusVisible: boolean }) => ({
  padding: '4px 10px',
  cursor: 'pointer',
  borderBottom: isSelected ? '3px solid currentColor' : '3px solid transparent',
  fontWeight: isSelected ? 700 : 400,
  outline: isFocusVisible ? '2px solid currentColor' : 'none',
});

/**
 * One table from GET /api/tables/{full_name}, in tabs as Catalog Explorer has them: columns (virtualised), sample,
 * details, history, lineage, quality and contract. Each tab reads its API only when opened; `?tab=` in the URL
 * says which is open (arrow keys move between tabs).
 */
export function TableDetails({ fullName }: { fullName: string }) {
  const { api } = useConsole();
  const [params, setParams] = useSearchParams();
  const tab: TabId = TABS.includes(params.get('tab') as TabId) ? (params.get('tab') as TabId) : 'columns';
  const q = useQuery(tableQuery(api, fullName));
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Loading {fullName}…</p>;
  const t = q.data;
  const checks = t.links.quality?.checks ?? 0;
  const contracts = t.links.contracts.map((c) => c.name);
  const select = (k: Key) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (k === 'columns') next.delete('tab');
        else next.set('tab', String(k));
        return next;
      },
      { replace: true },
    );
  return (
    <article aria-labelledby="table-title" style={{ flex: 1, minWidth: '20rem' }}>
      <h2 id="table-title">{t.full_name}</h2>
      <p>
        {t.table_type} · {t.format ?? 'format not reported'} · {t.columns.length} columns
      </p>
      <Tabs selectedKey={tab} onSelectionChange={select}>
        <TabList aria-label="Table tabs" style={{ display: 'flex', gap: 4, flexWrap: 'wrap', margin: '8px 0' }}>
          <Tab id="columns" style={tabStyle}>
            Columns
          </Tab>
          <Tab id="sample" style={tabStyle}>
            Sample
          </Tab>
          <Tab id="details" style={tabStyle}>
            Details
          </Tab>
          <Tab id="history" style={tabStyle}>
            History
          </Tab>
          <Tab id="lineage" style={tabStyle}>
            Lineage
          </Tab>
          <Tab id="quality" style={tabStyle}>
            Quality ({checks} check{checks === 1 ? '' : 's'})
          </Tab>
          <Tab id="contract" style={tabStyle}>
            Contract ({contracts.length})
          </Tab>
        </TabList>
        <TabPanel id="columns">
          <ColumnsTab columns={t.columns} />
        </TabPanel>
        <TabPanel id="sample">
          <SampleTab fullName={t.full_name} />
        </TabPanel>
        <TabPanel id="details">
          <dl className="cards" data-testid="table-details">
            <Card term="Type" value={t.table_type} />
            <Card term="Format" value={t.format ?? 'not reported'} />
            <Card term="Owner" value={t.owner ?? 'not reported'} />
            <Card
              term="Size"
              value={t.size_bytes === null ? 'not reported' : `${t.size_bytes} bytes in ${t.num_files ?? '?'} files`}
            />
            <Card term="Version" value={t.version === null ? 'not reported' : String(t.version)} />
            <Card term="Location" value={t.location ?? 'not reported'} />
            <Card term="Partitioned by" value={t.partition_columns.join(', ') || 'not partitioned'} />
          </dl>
          {t.comment && <p>{t.comment}</p>}
          {Object.keys(t.properties).length > 0 && (
            <table>
              <caption>Table properties</caption>
              <tbody>
                {Object.entries(t.properties).map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row">{k}</th>
                    <td>{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </TabPanel>
        <TabPanel id="history">
          {t.history.length === 0 ? (
            <p>No history (a view, or history not kept).</p>
          ) : (
            <table data-testid="table-history">
              <caption>The last {t.history.length} versions</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">When</th>
                  <th scope="col">Operation</th>
                  <th scope="col">User</th>
                </tr>
              </thead>
              <tbody>
                {t.history.map((h) => (
                  <tr key={h.version}>
                    <td>{h.version}</td>
                    <td>{new Date(h.timestamp).toLocaleString()}</td>
                    <td>{h.operation}</td>
                    <td>{h.user_name ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </TabPanel>
        <TabPanel id="lineage">
          <LineageTab fullName={t.full_name} />
        </TabPanel>
        <TabPanel id="quality">
          <QualityTab fullName={t.full_name} />
        </TabPanel>
        <TabPanel id="contract">
          <ContractTab fullName={t.full_name} names={contracts} />
        </TabPanel>
      </Tabs>
    </article>
  );
}

function Card({ term, value }: { term: string; value: string }) {
  return (
    <div className="card">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
