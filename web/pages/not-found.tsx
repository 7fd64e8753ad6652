import { Compass } from 'lucide-react';
import { Link } from 'react-router-dom';
import { MyServersLink } from '../components/my-servers-link';
import { useDocumentTitle } from '../components/use-document-title';
import { buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';

/** The signed-in 404 screen for unknown paths. */
export default function NotFound() {
  useDocumentTitle('Page Not Found');
  return (
    <Card>
      <EmptyState
        icon={Compass}
        heading="h1"
        title="Page Not Found"
        description="The page you are looking for does not exist or has moved."
        actions={
          <>
            <Link to="/dashboard" className={buttonClass('primary')}>
              Go to Dashboard
            </Link>
            <MyServersLink />
          </>
        }
      />
    </Card>
  );
}
